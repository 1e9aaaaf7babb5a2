import type { ImapFlow, MailboxObject } from 'imapflow';
import type { AppContext } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/http/auth-user.js';
import { isoSeconds } from '../../../platform/time.js';
import { mailErrorMessage, openImap } from '../connection.js';
import { freshCredentials } from '../oauth.js';
import { setStatus } from '../mailboxes.repo.js';
import type { Filer } from './file.js';
import { locateFolders, syncFolder } from './folders.js';

/** The session ended because it must (stop, lease lost, mailbox gone), not because of an error. */
export class SessionStopped extends Error {}

/** An error the mailbox's status shows, in words a person understands. */
export class MailboxFault extends Error {}

const DAY_MS = 86_400_000;

async function actorOf(ctx: AppContext, accountId: number, userId: number): Promise<AuthUser> {
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'role', 'name', 'email'])
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user) throw new MailboxFault("The mailbox's user is deactivated: nothing is synced");
  return { accountId, userId: user.id, role: user.role, name: user.name, email: user.email };
}

async function colleagues(ctx: AppContext, accountId: number): Promise<Set<string>> {
  const [users, boxes] = await Promise.all([
    ctx.db.selectFrom('users').select('email').where('account_id', '=', accountId).execute(),
    ctx.db.selectFrom('mailboxes').select('address').where('account_id', '=', accountId).execute(),
  ]);
  return new Set(
    [...users.map((u) => u.email), ...boxes.map((b) => b.address)].map((a) => a.toLowerCase()),
  );
}

/** Resolves on new mail (IDLE's EXISTS), after the poll period, on stop, or rejects on close. */
async function waitForMail(
  ctx: AppContext,
  mailboxId: number,
  client: ImapFlow,
  signal: AbortSignal,
): Promise<void> {
  const lock = await client.getMailboxLock('INBOX', { readOnly: true });
  lock.release();
  // Mail that came while Sent was read raises no EXISTS now: read again at once.
  const inbox = await ctx.db
    .selectFrom('mailbox_folders')
    .select('last_uid')
    .where('mailbox_id', '=', mailboxId)
    .where('role', '=', 'inbox')
    .executeTakeFirst();
  const uidNext = (client.mailbox as MailboxObject).uidNext;
  if (inbox && uidNext > inbox.last_uid + 1 && uidNext > 1) return;
  const ms = ctx.config.mailbox.pollSeconds * 1000;
  await new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      client.off('exists', onExists);
      client.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    };
    const onExists = () => done();
    const onClose = () => done(new MailboxFault('The IMAP server closed the connection'));
    const onAbort = () => done();
    const timer = setTimeout(() => done(), ms);
    client.on('exists', onExists);
    client.on('close', onClose);
    signal.addEventListener('abort', onAbort);
  });
}

/**
 * Holds one mailbox's IMAP connection while the worker holds its lease: reads INBOX and Sent,
 * marks it `ok`, then waits for new mail (IDLE where the server has it, the poll period at
 * most) and reads again, until stopped. Throws on any fault; the job records it and backs off.
 */
export async function runSession(
  ctx: AppContext,
  mailboxId: number,
  signal: AbortSignal,
): Promise<void> {
  const row = await ctx.db
    .selectFrom('mailboxes')
    .selectAll()
    .where('id', '=', mailboxId)
    .executeTakeFirst();
  if (!row) return;
  const actor = await actorOf(ctx, row.account_id, row.user_id);
  const credentials = await freshCredentials(ctx, row);
  let client: ImapFlow;
  try {
    client = await openImap(ctx, row, credentials);
  } catch (err) {
    throw new MailboxFault(mailErrorMessage(err, 'IMAP', row.imap_host));
  }
  const now = () => isoSeconds(ctx.clock.now());
  try {
    let historic = row.last_sync_at === null;
    let since = row.synced_since;
    if (since === null) {
      since = isoSeconds(ctx.clock.now() - ctx.config.mailbox.syncDays * DAY_MS);
      await ctx.db
        .updateTable('mailboxes')
        .set({ synced_since: since })
        .where('id', '=', row.id)
        .execute();
    }
    if (historic) await setStatus(ctx.db, row.id, 'syncing', null, now());
    const checkpoint = () => {
      if (signal.aborted) throw new SessionStopped();
    };
    while (!signal.aborted) {
      const filer: Filer = {
        mailboxId: row.id,
        address: row.address,
        actor,
        colleagues: await colleagues(ctx, row.account_id),
      };
      const pass = { ctx, client, filer, historic, since: new Date(since), checkpoint };
      for (const folder of await locateFolders(client))
        await syncFolder(pass, folder.role, folder.path);
      const at = now();
      await ctx.db
        .updateTable('mailboxes')
        .set({ status: 'ok', error: null, last_sync_at: at, failures: 0, updated_at: at })
        .where('id', '=', row.id)
        .execute();
      historic = false;
      await waitForMail(ctx, row.id, client, signal);
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
}
