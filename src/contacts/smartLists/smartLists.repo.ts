import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { mayChangeOwnedRecord } from '../../access/ownership.js';
import { containsText } from '../../platform/db/text-match.js';
import type { SmartListsTable } from './smartLists.tables.js';
import './smartLists.tables.js';

export type SmartListRow = Selectable<SmartListsTable>;

/**
 * Every user, Owner and Admin included, sees their own lists and the shared ones of the account:
 * an unshared list is someone's private working view.
 */
export function visibleSmartLists(db: DbOrTrx, auth: AuthUser) {
  return db
    .selectFrom('smart_lists')
    .selectAll()
    .where('account_id', '=', auth.accountId)
    .where((eb) => eb.or([eb('user_id', '=', auth.userId), eb('is_shared', '=', 1)]));
}

export interface SmartListFilters {
  name?: string;
  userId?: number;
  isShared?: boolean;
}

/** The lists the caller sees, narrowed by name (contains), owner and sharing when given. */
export function smartListsListQuery(db: DbOrTrx, auth: AuthUser, filters: SmartListFilters) {
  let query = visibleSmartLists(db, auth);
  if (filters.name) query = query.where(containsText('name', filters.name));
  if (filters.userId !== undefined) query = query.where('user_id', '=', filters.userId);
  if (filters.isShared !== undefined)
    query = query.where('is_shared', '=', filters.isShared ? 1 : 0);
  return query;
}

export function insertSmartList(
  db: DbOrTrx,
  values: Insertable<SmartListsTable>,
): Promise<SmartListRow> {
  return db.insertInto('smart_lists').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateSmartList(
  db: DbOrTrx,
  row: SmartListRow,
  changes: Updateable<SmartListsTable>,
): Promise<SmartListRow> {
  return db
    .updateTable('smart_lists')
    .set(changes)
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteSmartList(db: DbOrTrx, accountId: number, id: number): Promise<void> {
  await db
    .deleteFrom('smart_lists')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function findVisibleSmartList(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<SmartListRow | undefined> {
  return visibleSmartLists(db, auth).where('id', '=', id).executeTakeFirst();
}

/** May this user change or delete the list? Its owner, and the account's Owner and Admins. */
export function canEditSmartList(auth: AuthUser, row: SmartListRow): boolean {
  return mayChangeOwnedRecord(auth, row.user_id);
}
