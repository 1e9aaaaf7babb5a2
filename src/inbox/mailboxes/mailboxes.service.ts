import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest, conflict } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import { isEmailAddress } from '../../platform/email-address.js';
import { isoSeconds } from '../../platform/time.js';
import { mailErrorMessage, openImap, smtpTransport } from './connection.js';
import { type MailCredentials, sealCredentials } from './credentials.js';
import type { MailboxCreateBody } from './mailboxes.schemas.js';
import type { MailboxAuthKind } from './mailboxes.tables.js';
import type { MailboxRow } from './mailboxes.repo.js';

/** A user connects a few mailboxes at most: each holds a connection in a worker. */
const MAX_PER_USER = 5;
/** After a failed test on connect the worker tries again this much later (not at once). */
const RETRY_AFTER_FAILED_TEST_MS = 15 * 60 * 1000;

export type ServerSettings = Pick<
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
 * Signs in to both servers as the mailbox will: IMAP login, SMTP EHLO + AUTH. Null when both
 * answer, else what went wrong, in words a person can act on.
 */
export async function testServers(
  ctx: AppContext,
  servers: ServerSettings,
  credentials: MailCredentials,
): Promise<string | null> {
  try {
    const imap = await openImap(ctx, servers, credentials);
    await imap.logout().catch(() => imap.close());
  } catch (err) {
    return mailErrorMessage(err, 'IMAP', servers.imap_host);
  }
  try {
    const transport = await smtpTransport(ctx, servers, credentials);
    try {
      await transport.verify();
    } finally {
      transport.close();
    }
  } catch (err) {
    return mailErrorMessage(err, 'SMTP', servers.smtp_host);
  }
  return null;
}

/**
 * Stores a mailbox for its user after testing it: `connecting` (a worker picks it up at once) or
 * `error` with the reason (tried again later; the user can fix it by reconnecting).
 */
export async function storeMailbox(
  ctx: AppContext,
  auth: AuthUser,
  address: string,
  servers: ServerSettings,
  credentials: MailCredentials,
  authKind: MailboxAuthKind,
): Promise<MailboxRow> {
  const taken = await ctx.db
    .selectFrom('mailboxes')
    .select(['id', 'address'])
    .where('account_id', '=', auth.accountId)
    .where('user_id', '=', auth.userId)
    .execute();
  if (taken.some((m) => m.address === address))
    throw conflict(`${address} is connected already: disconnect it first to change its settings`);
  if (taken.length >= MAX_PER_USER)
    throw conflict(`A user connects at most ${MAX_PER_USER} mailboxes`);
  const error = await testServers(ctx, servers, credentials);
  const now = ctx.clock.now();
  const at = isoSeconds(now);
  return ctx.db
    .insertInto('mailboxes')
    .values({
      account_id: auth.accountId,
      user_id: auth.userId,
      address,
      auth_kind: authKind,
      ...servers,
      secret: sealCredentials(ctx.config, credentials),
      status: error ? 'error' : 'connecting',
      error,
      last_sync_at: null,
      synced_since: null,
      failures: error ? 1 : 0,
      next_attempt_at: isoSeconds(error ? now + RETRY_AFTER_FAILED_TEST_MS : now),
      locked_by: null,
      locked_until: null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function mailboxAddress(raw: string): string {
  const address = raw.trim().toLowerCase();
  if (!isEmailAddress(address))
    throw badRequest(`'${raw}' is not an email address`, [
      { field: 'address', message: 'must be an email address' },
    ]);
  return address;
}

/** `secure` as sent, else implicit TLS on its well-known port (993, 465) and STARTTLS elsewhere. */
function secureFlag(value: boolean | number | string | undefined, port: number, tlsPort: number) {
  return (toBool(value) ?? port === tlsPort) ? 1 : 0;
}

/** POST /v1/mailboxes: app passwords. */
export function connectWithPasswords(
  ctx: AppContext,
  auth: AuthUser,
  body: Static<typeof MailboxCreateBody>,
) {
  const { imap, smtp } = body;
  return storeMailbox(
    ctx,
    auth,
    mailboxAddress(body.address),
    {
      imap_host: imap.host.toLowerCase(),
      imap_port: imap.port,
      imap_secure: secureFlag(imap.secure, imap.port, 993),
      imap_username: imap.username,
      smtp_host: smtp.host.toLowerCase(),
      smtp_port: smtp.port,
      smtp_secure: secureFlag(smtp.secure, smtp.port, 465),
      smtp_username: smtp.username,
    },
    { kind: 'password', imapPassword: imap.password, smtpPassword: smtp.password },
    'password',
  );
}
