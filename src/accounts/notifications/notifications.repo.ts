import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { NotificationsTable } from './notifications.tables.js';
import './notifications.tables.js';

export type NotificationRow = Selectable<NotificationsTable>;

/** One user's own notifications. */
export function myNotifications(db: DbOrTrx, accountId: number, userId: number) {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId);
}

/** A user's notifications, only unread ones and those about one person when asked. */
export function myNotificationsList(
  db: DbOrTrx,
  accountId: number,
  userId: number,
  filters: { unread?: boolean; personId?: number },
) {
  let query = myNotifications(db, accountId, userId);
  if (filters.unread) query = query.where('read_at', 'is', null);
  if (filters.personId) query = query.where('person_id', '=', filters.personId);
  return query;
}

export function findMyNotification(
  db: DbOrTrx,
  accountId: number,
  userId: number,
  id: number,
): Promise<NotificationRow | undefined> {
  return myNotifications(db, accountId, userId).where('id', '=', id).executeTakeFirst();
}

export async function setReadAt(
  db: DbOrTrx,
  userId: number,
  id: number,
  readAt: string | null,
): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: readAt })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
}

/** Marks every unread notification of the user read; how many changed. */
export async function markAllRead(
  db: DbOrTrx,
  accountId: number,
  userId: number,
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * How many of a user's notifications are unread, and the newest unread one's id: a notification
 * read and another made between two looks leave the count as it was, never the newest id.
 */
export async function unreadState(db: DbOrTrx, accountId: number, userId: number) {
  const row = await myNotificationsList(db, accountId, userId, { unread: true })
    .clearSelect()
    .select((eb) => [eb.fn.countAll<number>().as('unread'), eb.fn.max('id').as('latest')])
    .executeTakeFirst();
  return {
    unread: Number(row?.unread ?? 0),
    latest: row?.latest == null ? null : Number(row.latest),
  };
}
