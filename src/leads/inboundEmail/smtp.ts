import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { AppContext } from '../../platform/context.js';
import { floodGuardFor } from './flood.js';
import { leadRecipients, MAX_RECIPIENTS } from './recipients.js';
import { InboundIntake } from './intake.js';
import type { Delivery } from './store.js';

/** Connections served at once; more wait in the kernel's backlog or are refused (421). */
const MAX_CLIENTS = 200;

export interface InboundListener {
  port: number;
  close(): Promise<void>;
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * The SMTP listener for lead addresses (HEARTH_INBOUND_SMTP_PORT): STARTTLS with Hearth's
 * certificate, 550 for any other recipient (it relays nothing), 552 over HEARTH_INBOUND_MAX_BYTES.
 * 250 is answered only once the message is stored with its parse job.
 */
export async function startInboundListener(
  ctx: AppContext,
  tls: { key: string; cert: string },
): Promise<InboundListener> {
  const { domain, maxBytes, smtpPort } = ctx.config.inbound;
  const flood = floodGuardFor(ctx);
  const intake = new InboundIntake(ctx);
  // The owners found at RCPT TO, so DATA stores without looking them up again.
  const accepted = new WeakMap<object, Delivery['recipients']>();
  const smtp = new SMTPServer({
    name: domain,
    banner: 'Hearth lead mail',
    key: tls.key,
    cert: tls.cert,
    authOptional: true,
    disabledCommands: ['AUTH'],
    size: maxBytes,
    maxClients: MAX_CLIENTS,
    socketTimeout: 60_000,
    logger: false,
    async onRcptTo(address, session, callback) {
      try {
        if (session.envelope.rcptTo.length >= MAX_RECIPIENTS)
          return callback(smtpError(452, `4.5.3 Too many recipients (at most ${MAX_RECIPIENTS})`));
        const [lead] = await leadRecipients(ctx.db, domain, [address.address]);
        if (!lead)
          return callback(
            smtpError(
              550,
              `5.1.1 <${address.address}>: not a lead address here; nothing is relayed`,
            ),
          );
        const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        if (!(await flood.allow(`${sender.toLowerCase()}>${lead.address}`)))
          return callback(smtpError(451, '4.7.1 Too many messages from this sender; try later'));
        const recipients = accepted.get(session.envelope) ?? [];
        recipients.push(lead);
        accepted.set(session.envelope, recipients);
        callback();
      } catch (err) {
        ctx.log.error({ err }, 'inbound SMTP recipient check failed');
        callback(smtpError(451, '4.3.0 Temporary failure; try again later'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', () => callback(smtpError(451, '4.3.0 The message was cut off')));
      stream.on('end', () => {
        if (stream.sizeExceeded)
          return callback(smtpError(552, `5.3.4 Message larger than ${maxBytes} bytes`));
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const recipients = accepted.get(session.envelope) ?? [];
        void intake.store(Buffer.concat(chunks), { mailFrom, recipients }).then(
          () => callback(),
          (err: unknown) => {
            ctx.log.error({ err }, 'inbound message could not be stored');
            callback(smtpError(451, '4.3.0 The message could not be stored; try again later'));
          },
        );
      });
    },
  });

  // SMTP is a conversation of small replies (several at once for a pipelining sender): Nagle's
  // algorithm would hold the second behind the sender's delayed ACK (40 ms on Linux).
  smtp.server.on('connection', (socket: Socket) => socket.setNoDelay(true));
  smtp.on('error', (err) => ctx.log.warn({ err: err.message }, 'inbound SMTP connection error'));
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(smtpPort ?? 0, ctx.config.host, resolve);
  });
  const { port } = smtp.server.address() as AddressInfo;
  return {
    port,
    async close() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await flood.close();
    },
  };
}
