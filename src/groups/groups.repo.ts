import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../db/database.js';
import { badRequest } from '../http/errors.js';
import type { UserGroupsTable } from './groups.tables.js';
import './groups.tables.js';

export type GroupRow = Selectable<UserGroupsTable>;
export interface GroupMember {
  id: number;
  name: string;
}

export function groupsOf(db: DbOrTrx, accountId: number) {
  return db.selectFrom('user_groups').selectAll().where('account_id', '=', accountId);
}

/** Members of several groups at once, in rotation order. */
export async function membersOf(db: DbOrTrx, groupIds: number[]): Promise<Map<number, GroupMember[]>> {
  const byGroup = new Map<number, GroupMember[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const rows = await db
    .selectFrom('user_group_members')
    .innerJoin('users', 'users.id', 'user_group_members.user_id')
    .select(['user_group_members.group_id', 'users.id', 'users.name'])
    .where('user_group_members.group_id', 'in', groupIds)
    .orderBy('user_group_members.position')
    .orderBy('users.id')
    .execute();
  for (const row of rows) byGroup.get(row.group_id)?.push({ id: row.id, name: row.name });
  return byGroup;
}

/** Replaces a group's members; every id must be a user of the account. Order given is the rotation order. */
export async function setMembers(trx: Trx, accountId: number, groupId: number, userIds: number[]): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.length) {
    const found = await trx.selectFrom('users').select('id').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    const missing = ids.filter((id) => !found.some((u) => u.id === id));
    if (missing.length) throw badRequest(`users: no user ${missing.join(', ')} in this account`, [{ field: 'users', message: 'unknown user' }]);
  }
  await trx.deleteFrom('user_group_members').where('group_id', '=', groupId).execute();
  if (ids.length) {
    await trx.insertInto('user_group_members').values(ids.map((userId, position) => ({ group_id: groupId, user_id: userId, position }))).execute();
  }
}

/**
 * The next member of a round-robin group. The counter is advanced by one UPDATE … RETURNING, which
 * holds the group's row lock until the lead's transaction ends: concurrent leads each get their own
 * turn, so the rotation stays even. Null when the group is gone or empty.
 */
export async function nextInRotation(trx: Trx, accountId: number, groupId: number): Promise<number | null> {
  const members = await trx
    .selectFrom('user_group_members')
    .select('user_id')
    .where('group_id', '=', groupId)
    .orderBy('position')
    .orderBy('user_id')
    .execute();
  if (members.length === 0) return null;
  const turn = await trx
    .updateTable('user_groups')
    .set((eb) => ({ rotation: eb('rotation', '+', 1) }))
    .where('id', '=', groupId)
    .where('account_id', '=', accountId)
    .returning('rotation')
    .executeTakeFirst();
  if (!turn) return null;
  return members[(Number(turn.rotation) - 1) % members.length].user_id;
}
