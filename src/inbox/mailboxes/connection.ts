import type { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import type { AppContext } from '../../platform/context.js';
import type { MailCredentials } from './credentials.js';
import { mailServerAddress, MailHostRefused } from './host-guard.js';
import type { MailboxRow } from './mailboxes.repo.js';

/** The servers' side of a mailbox, as stored (the password is in its credentials). */
type Servers = Pick<
  MailboxRow,
  | 'imap_host'
  | 'imap_port'
  | 'imap_secure'
  | 'imap_username'
  | 'smtp_host'
  | 'smtp_port'
  | 'smtp_secure'
  | 'smtp_username'
>;

/**
 * An IMAP client for the mailbox, connected to the checked address. Without implicit TLS the
 * client must upgrade with STARTTLS, except on private networks (tests, on-premise), so a
 * password never crosses the internet in clear.
 */
export async function openImap(
  ctx: AppContext,
  servers: Servers,
  credentials: MailCredentials,
): Promise<ImapFlow> {
  const { allowPrivate, timeoutSeconds } = ctx.config.mailbox;
  const address = await mailServerAddress(servers.imap_host, allowPrivate);
  // Loaded on the first connection (0.3 s of CPU), not by every process that starts the app.
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: address,
    servername: servers.imap_host,
    port: servers.imap_port,
    secure: servers.imap_secure === 1,
    doSTARTTLS: servers.imap_secure === 1 || allowPrivate ? undefined : true,
    auth:
      credentials.kind === 'password'
        ? { user: servers.imap_username, pass: credentials.imapPassword }
        : { user: servers.imap_username, accessToken: credentials.accessToken },
    logger: false,
    connectionTimeout: timeoutSeconds * 1000,
    greetingTimeout: timeoutSeconds * 1000,
    socketTimeout: 5 * 60 * 1000,
  });
  // An error after connect surfaces through the running command or the 'close' event.
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** A nodemailer transport for the mailbox's SMTP server (one message, then closed). */
export async function smtpTransport(
  ctx: AppContext,
  servers: Servers,
  credentials: MailCredentials,
) {
  const { allowPrivate, timeoutSeconds } = ctx.config.mailbox;
  const address = await mailServerAddress(servers.smtp_host, allowPrivate);
  return nodemailer.createTransport({
    host: address,
    port: servers.smtp_port,
    secure: servers.smtp_secure === 1,
    requireTLS: servers.smtp_secure !== 1 && !allowPrivate,
    tls: { servername: servers.smtp_host },
    auth:
      credentials.kind === 'password'
        ? { user: servers.smtp_username, pass: credentials.smtpPassword }
        : { type: 'OAuth2', user: servers.smtp_username, accessToken: credentials.accessToken },
    connectionTimeout: timeoutSeconds * 1000,
    greetingTimeout: timeoutSeconds * 1000,
    socketTimeout: 60_000,
  });
}

/** An error from a mail server, in words a person can act on. */
export function mailErrorMessage(err: unknown, server: 'IMAP' | 'SMTP', host: string): string {
  if (err instanceof MailHostRefused) return err.message;
  const e = err as Error & {
    code?: string;
    authenticationFailed?: boolean;
    responseCode?: number;
    responseText?: string;
  };
  const where = `the ${server} server ${host}`;
  if (e.authenticationFailed || e.code === 'EAUTH' || e.responseCode === 535)
    return `${where} refused the username or password (with Gmail, Outlook or iCloud use an app password)`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `${where} refused the connection: check the host and port`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${where} was not found: check the host name`;
    case 'ETIMEDOUT':
    case 'ETIMEOUT':
    case 'ETIMEOUTCONNECT':
    case 'ETIMEOUTGREETING':
      return `${where} did not answer in time: check the host, the port and the TLS setting`;
    case 'ESOCKET':
    case 'ECONNRESET':
    case 'EConnectionClosed':
    case 'ClosedAfterConnectText':
    case 'ClosedAfterConnectTLS':
    case 'NoConnection':
      return `${where} closed the connection (${e.message}): check the port and the TLS setting`;
    case 'ETLS':
      return `${where} could not set up TLS (${e.message}): check the port and the TLS setting`;
  }
  if (/certificate|SSL|TLS|wrong version number/i.test(e.message ?? ''))
    return `${where} could not set up TLS (${e.message}): check the port and the TLS setting`;
  const said = e.responseText ? `: ${e.responseText}` : e.message ? `: ${e.message}` : '';
  return `${where} failed${said}`.slice(0, 500);
}
