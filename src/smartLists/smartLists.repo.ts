import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import { type AuthUser, seesEveryone } from '../http/auth.js';
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

export async function findVisibleSmartList(db: DbOrTrx, auth: AuthUser, id: number): Promise<SmartListRow | undefined> {
  return visibleSmartLists(db, auth).where('id', '=', id).executeTakeFirst();
}

/** May this user change or delete the list? Its owner, and the account's Owner and Admins. */
export function canEditSmartList(auth: AuthUser, row: SmartListRow): boolean {
  return seesEveryone(auth) || row.user_id === auth.userId;
}
