import { ImapFlow } from 'imapflow';
import type { Dovecot } from './dovecot.js';
import type { TestServer } from '../support/server.js';
import { eventually } from '../support/eventually.js';

/** Settings that let Hearth reach the test's dovecot and SMTP sink (both on loopback). */
export const MAILBOX_ENV = {
  HEARTH_MAILBOX_ALLOW_PRIVATE: '1',
  HEARTH_MAILBOX_POLL_SECONDS: '1',
  HEARTH_SECRET: 'mailbox-tests-secret-0123456789abcdef',
};

export interface MailMessageSpec {
  from: string;
  to: string | string[];
  cc?: string[];
  subject: string;
  body?: string;
  html?: string;
  messageId: string;
  references?: string[];
  date?: Date;
  headers?: Record<string, string>;
}

/** A raw RFC 5322 message. */
export function rawMessage(spec: MailMessageSpec): string {
  const lines = [
    `From: ${spec.from}`,
    `To: ${[spec.to].flat().join(', ')}`,
    ...(spec.cc?.length ? [`Cc: ${spec.cc.join(', ')}`] : []),
    `Subject: ${spec.subject}`,
    `Date: ${(spec.date ?? new Date()).toUTCString()}`,
    `Message-ID: ${spec.messageId}`,
    ...(spec.references?.length
      ? [`In-Reply-To: ${spec.references.at(-1)}`, `References: ${spec.references.join(' ')}`]
      : []),
    ...Object.entries(spec.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    'MIME-Version: 1.0',
  ];
  if (spec.html) {
    return [
      ...lines,
      'Content-Type: multipart/alternative; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      spec.body ?? '',
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      '',
      spec.html,
      '--b1--',
      '',
    ].join('\r\n');
  }
  return [...lines, 'Content-Type: text/plain; charset=utf-8', '', spec.body ?? 'Hello', ''].join(
    '\r\n',
  );
}

/** Puts messages into a folder of a dovecot user, as mail arriving (or sent elsewhere) would. */
export async function appendMail(
  dovecot: Dovecot,
  user: string,
  password: string,
  folder: string,
  messages: (string | Buffer)[],
): Promise<void> {
  const client = new ImapFlow({
    host: dovecot.host,
    port: dovecot.port,
    secure: false,
    auth: { user, pass: password },
    logger: false,
  });
  await client.connect();
  try {
    for (const message of messages) await client.append(folder, message);
  } finally {
    await client.logout();
  }
}

/** How many messages a folder holds. */
export async function countMail(
  dovecot: Dovecot,
  user: string,
  password: string,
  folder: string,
): Promise<number> {
  const client = new ImapFlow({
    host: dovecot.host,
    port: dovecot.port,
    secure: false,
    auth: { user, pass: password },
    logger: false,
  });
  await client.connect();
  try {
    const status = await client.status(folder, { messages: true });
    return status ? (status.messages ?? 0) : 0;
  } finally {
    await client.logout();
  }
}

/** The body of POST /v1/mailboxes for a dovecot user and an SMTP server. */
export function mailboxBody(dovecot: Dovecot, user: string, password: string, smtpUrl: string) {
  const smtp = new URL(smtpUrl);
  return {
    address: user,
    imap: { host: dovecot.host, port: dovecot.port, secure: false, username: user, password },
    smtp: { host: smtp.hostname, port: Number(smtp.port), secure: false, username: user, password },
  };
}

/** Waits for a mailbox's status to be one of `statuses`. */
export function mailboxStatus(server: TestServer, key: string, id: number, statuses: string[]) {
  return eventually(
    `mailbox ${id} ${statuses.join('/')}`,
    async () => {
      const res = await server.get(key, `/v1/mailboxes/${id}`);
      return statuses.includes(res.body.status) ? res.body : null;
    },
    20_000,
  );
}

/** The emails on a person's timeline. */
export async function timeline(server: TestServer, key: string, personId: number) {
  const res = await server.get(key, `/v1/emails?personId=${personId}&limit=100`);
  return res.body.emails as {
    id: number;
    subject: string;
    body: string;
    htmlBody: string | null;
    isIncoming: boolean;
    from: string;
    to: string[];
    cc: string[];
    userId: number;
    messageId: string;
    threadId: string;
    sentAt: string;
  }[];
}
