import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { findPond } from '../../contacts/people/assignment.js';
import type { GroupDistribution, GroupType, UserGroupsTable } from './groups.tables.js';
import './groups.tables.js';

export type GroupRow = Selectable<UserGroupsTable>;
export interface GroupMember {
  id: number;
  name: string;
}

export function groupsOf(db: DbOrTrx, accountId: number) {
  return db.selectFrom('user_groups').selectAll().where('account_id', '=', accountId);
}

export function findGroup(
  db: DbOrTrx,
  accountId: number,
  id: number,
): Promise<GroupRow | undefined> {
  return groupsOf(db, accountId).where('id', '=', id).executeTakeFirst();
}

/** The account's groups, only those named `name` when given. */
export function groupsListQuery(db: DbOrTrx, accountId: number, name: string | undefined) {
  const query = groupsOf(db, accountId);
  return name ? query.where('name', '=', name) : query;
}

/** The groups of the round-robin list, of one type (Agent or Lender) when asked. */
export function groupsOfType(db: DbOrTrx, accountId: number, type: GroupType | undefined) {
  const query = groupsOf(db, accountId);
  return type ? query.where('type', '=', type) : query;
}

/** A new round-robin group with no members and no fallback. */
export async function insertGroup(
  db: DbOrTrx,
  accountId: number,
  name: string,
  at: string,
): Promise<number> {
  const row = await db
    .insertInto('user_groups')
    .values({
      account_id: accountId,
      name,
      distribution: 'round-robin',
      created_at: at,
      updated_at: at,
      default_user_id: null,
      default_group_id: null,
      default_pond_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function renameGroup(
  db: DbOrTrx,
  id: number,
  name: string,
  at: string,
): Promise<void> {
  await db.updateTable('user_groups').set({ name, updated_at: at }).where('id', '=', id).execute();
}

/** Members of several groups at once, in rotation order. */
export async function membersOf(
  db: DbOrTrx,
  groupIds: number[],
): Promise<Map<number, GroupMember[]>> {
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
export async function setMembers(
  trx: Trx,
  accountId: number,
  groupId: number,
  userIds: number[],
): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.length) {
    const found = await trx
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    const missing = ids.filter((id) => !found.some((u) => u.id === id));
    if (missing.length)
      throw badRequest(`users: no user ${missing.join(', ')} in this account`, [
        { field: 'users', message: 'unknown user' },
      ]);
  }
  await trx.deleteFrom('user_group_members').where('group_id', '=', groupId).execute();
  if (ids.length) {
    await trx
      .insertInto('user_group_members')
      .values(ids.map((userId, position) => ({ group_id: groupId, user_id: userId, position })))
      .execute();
  }
}

export interface GroupRouting {
  type?: GroupType;
  distribution?: GroupDistribution;
  claimWindow?: number;
  defaultUserId?: number | null;
  defaultGroupId?: number | null;
  defaultPondId?: number | null;
}

/** Stores a group's type, distribution, claim window and fallback; 400 for a fallback not in the account. */
export async function applyRouting(
  trx: Trx,
  accountId: number,
  groupId: number,
  routing: GroupRouting,
): Promise<void> {
  const { defaultUserId, defaultGroupId, defaultPondId } = routing;
  if (defaultUserId) {
    const user = await trx
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', defaultUserId)
      .executeTakeFirst();
    if (!user)
      throw badRequest(`defaultUserId: no user ${defaultUserId} in this account`, [
        { field: 'defaultUserId', message: 'unknown user' },
      ]);
  }
  if (defaultGroupId) {
    const group = await groupsOf(trx, accountId)
      .where('id', '=', defaultGroupId)
      .executeTakeFirst();
    if (!group || group.id === groupId)
      throw badRequest(`defaultGroupId: no other group ${defaultGroupId} in this account`, [
        { field: 'defaultGroupId', message: 'unknown group' },
      ]);
  }
  if (defaultPondId && !(await findPond(trx, accountId, defaultPondId)))
    throw badRequest(`defaultPondId: no pond ${defaultPondId} in this account; see GET /v1/ponds`, [
      { field: 'defaultPondId', message: 'unknown pond' },
    ]);
  const changes = {
    type: routing.type,
    distribution: routing.distribution,
    claim_window: routing.claimWindow,
    default_user_id: defaultUserId,
    default_group_id: defaultGroupId,
    default_pond_id: defaultPondId,
  };
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(given).length === 0) return;
  await trx.updateTable('user_groups').set(given).where('id', '=', groupId).execute();
}

/**
 * The next member of a round-robin group. The counter is advanced by one UPDATE … RETURNING, which
 * holds the group's row lock until the lead's transaction ends: concurrent leads each get their own
 * turn, so the rotation stays even. Null when the group is gone or empty.
 */
export async function nextInRotation(
  trx: Trx,
  accountId: number,
  groupId: number,
): Promise<number | null> {
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
