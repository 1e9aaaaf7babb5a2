import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import '../../leads/ponds/ponds.tables.js';

/** The lists of users that ponds and teams carry: one table per list, keyed by its owner. */
export type UserListTable = 'pond_members' | 'team_members' | 'team_leaders';
type OwnerKey = 'pond_id' | 'team_id';
const ownerKey: Record<UserListTable, OwnerKey> = {
  pond_members: 'pond_id',
  team_members: 'team_id',
  team_leaders: 'team_id',
};

/** 400 naming `field` unless every id is an active user of the account. */
export async function assertAccountUsers(
  db: DbOrTrx,
  accountId: number,
  ids: number[],
  field: string,
): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await db
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .where('id', 'in', unique)
    .execute();
  const missing = unique.filter((id) => !found.some((u) => u.id === id));
  if (missing.length)
    throw badRequest(`${field}: no active user ${missing.join(', ')} in this account`, [
      { field, message: 'unknown user' },
    ]);
}

/** Replaces one pond's or team's list (the caller has checked the ids). */
export async function replaceUserList(
  trx: Trx,
  table: UserListTable,
  ownerId: number,
  userIds: number[],
): Promise<void> {
  const key = ownerKey[table] as 'pond_id';
  const list = table as 'pond_members';
  await trx.deleteFrom(list).where(key, '=', ownerId).execute();
  const ids = [...new Set(userIds)];
  if (ids.length)
    await trx
      .insertInto(list)
      .values(ids.map((userId) => ({ [key]: ownerId, user_id: userId }) as never))
      .execute();
}

/** The lists of several owners at once: owner id → user ids, ascending. */
export async function userListsOf(
  db: DbOrTrx,
  table: UserListTable,
  ownerIds: number[],
): Promise<Map<number, number[]>> {
  const lists = new Map<number, number[]>(ownerIds.map((id) => [id, []]));
  if (ownerIds.length === 0) return lists;
  const key = ownerKey[table] as 'pond_id';
  const rows = await db
    .selectFrom(table as 'pond_members')
    .select([`${key} as owner_id`, 'user_id'])
    .where(key, 'in', ownerIds)
    .orderBy('user_id')
    .execute();
  for (const row of rows) lists.get(row.owner_id)?.push(row.user_id);
  return lists;
}

/** The teams each of these users leads (users' `teamLeaderOf`). */
export async function teamsLedBy(db: DbOrTrx, userIds: number[]): Promise<Map<number, number[]>> {
  const led = new Map<number, number[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return led;
  const rows = await db
    .selectFrom('team_leaders')
    .select(['user_id', 'team_id'])
    .where('user_id', 'in', userIds)
    .orderBy('team_id')
    .execute();
  for (const row of rows) led.get(row.user_id)?.push(row.team_id);
  return led;
}
