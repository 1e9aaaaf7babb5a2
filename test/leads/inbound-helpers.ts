import { readFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { eventually } from '../support/eventually.js';
import { ROOT } from '../support/process.js';
import type { TestServer } from '../support/server.js';

export const INBOUND_SECRET = 'inbound-test-secret-0123456789abcdef';

export function fixture(name: string): Buffer {
  return readFileSync(path.join(ROOT, 'test/fixtures/inbound', name));
}

/** A copy of a fixture under a Message-ID of its own (so one fixture can be sent again). */
export function withMessageId(raw: Buffer, id: string): Buffer {
  return Buffer.from(
    raw.toString('latin1').replace(/^Message-ID:.*$/im, `Message-ID: <${id}>\r`),
    'latin1',
  );
}

/** Sends a raw message to the server's SMTP listener over STARTTLS (the certificate verified). */
export async function sendSmtp(
  server: TestServer,
  raw: Buffer | string,
  to: string | string[],
  from = 'sender@portal.example',
) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: server.smtpPort!,
    secure: false,
    requireTLS: true,
    tls: { ca: server.cert, servername: 'localhost' },
  });
  try {
    return await transport.sendMail({ envelope: { from, to: [to].flat() }, raw });
  } finally {
    transport.close();
  }
}

export async function leadAddresses(server: TestServer, key: string) {
  const identity = await server.get(key, '/v1/identity');
  return {
    account: identity.body.account.leadEmailAddress as string,
    user: identity.body.user.leadEmailAddress as string,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Inbound = Record<string, any>;

/** The account's inbound messages once `count` of them have been through the parser. */
export async function parsedInbound(
  server: TestServer,
  key: string,
  count: number,
  timeoutMs = 30_000,
) {
  return eventually(
    `${count} parsed inbound emails`,
    async () => {
      const res = await server.get(key, '/v1/inboundEmails?limit=100');
      const rows = res.body.inboundemails as Inbound[];
      return rows.filter((r) => r.parsedAt !== null).length >= count && rows;
    },
    timeoutMs,
  );
}
