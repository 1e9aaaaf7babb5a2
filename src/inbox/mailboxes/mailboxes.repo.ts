import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { notFound } from '../../platform/http/errors.js';
import type { MailboxesTable, MailboxStatus } from './mailboxes.tables.js';
import './mailboxes.tables.js';

export type MailboxRow = Selectable<MailboxesTable>;

/** No answer ever holds the credentials: they stay in `secret`, which this never shows. */
export function presentMailbox(row: MailboxRow) {
  return {
    id: row.id,
    userId: row.user_id,
    address: row.address,
    status: row.status,
    error: row.error,
    lastSyncAt: row.last_sync_at,
    authKind: row.auth_kind,
    imap: { host: row.imap_host, port: row.imap_port, secure: row.imap_secure === 1 },
    smtp: { host: row.smtp_host, port: row.smtp_port, secure: row.smtp_secure === 1 },
    created: row.created_at,
  };
}

/** The mailboxes a caller may see: their own; an Owner sees which the whole account has. */
export function visibleMailboxes(db: DbOrTrx, auth: AuthUser) {
  let query = db.selectFrom('mailboxes').selectAll().where('account_id', '=', auth.accountId);
  if (auth.role !== 'Owner') query = query.where('user_id', '=', auth.userId);
  return query;
}

export async function getVisibleMailbox(db: DbOrTrx, auth: AuthUser, id: number) {
  const row = await visibleMailboxes(db, auth).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`Mailbox ${id}`);
  return row;
}

/** The caller's own mailbox: only its user sends from it. */
export async function getOwnMailbox(db: DbOrTrx, auth: AuthUser, id: number) {
  const row = await db
    .selectFrom('mailboxes')
    .selectAll()
    .where('account_id', '=', auth.accountId)
    .where('user_id', '=', auth.userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`Mailbox ${id}`);
  return row;
}

export async function setStatus(
  db: DbOrTrx,
  id: number,
  status: MailboxStatus,
  error: string | null,
  at: string,
  extra: { last_sync_at?: string } = {},
) {
  await db
    .updateTable('mailboxes')
    .set({ status, error, updated_at: at, ...extra })
    .where('id', '=', id)
    .execute();
}
