import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  from: string;
  to: string;
  data: string;
}

export interface SmtpSink {
  url: string;
  messages: SinkMessage[];
  /** Messages accepted per recipient address. */
  countFor(address: string): number;
  /** Answers RCPT TO for this address with the given code (e.g. 450, 550). */
  reject(address: string, code: number): void;
  close(): Promise<void>;
}

/** A local SMTP server that keeps every message it accepts (no STARTTLS, no auth). */
export async function startSmtpSink(options: { keepData?: boolean } = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const counts = new Map<string, number>();
  const rejections = new Map<string, number>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const code = rejections.get(address.address.toLowerCase());
      if (!code) return callback();
      const err = new Error(code >= 500 ? 'mailbox unavailable' : 'try again later');
      (err as Error & { responseCode: number }).responseCode = code;
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(',');
        counts.set(to, (counts.get(to) ?? 0) + 1);
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to,
          data: options.keepData === false ? '' : Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  // A client killed mid-message resets its connection: expected here, not a failure.
  smtp.on('error', () => {});
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    countFor: (address) => counts.get(address.toLowerCase()) ?? 0,
    reject: (address, code) => rejections.set(address.toLowerCase(), code),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** A raw message with quoted-printable soft breaks and escapes undone (good enough to find links). */
export function decodedMessage(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
