import type { Static } from '@sinclair/typebox';
import type { Trx } from '../../platform/db/database.js';
import { notFound } from '../../platform/http/errors.js';
import {
  assertAccountUsers,
  replaceUserList,
  type UserListTable,
  userListsOf,
} from '../../accounts/users/userLists.js';
import type { TeamCreateBody, TeamUpdateBody } from './teams.schemas.js';
import { findTeam } from './teams.repo.js';

type TeamInput = Static<typeof TeamUpdateBody> | Static<typeof TeamCreateBody>;

async function saveLists(trx: Trx, accountId: number, id: number, input: TeamInput) {
  if (input.userIds) await assertAccountUsers(trx, accountId, input.userIds, 'userIds');
  if (input.leaderIds) await assertAccountUsers(trx, accountId, input.leaderIds, 'leaderIds');
  if (input.userIds) await replaceUserList(trx, 'team_members', id, input.userIds);
  if (input.leaderIds) await replaceUserList(trx, 'team_leaders', id, input.leaderIds);
}

export async function createTeam(
  trx: Trx,
  accountId: number,
  input: Static<typeof TeamCreateBody>,
  at: string,
): Promise<number> {
  const { id } = await trx
    .insertInto('teams')
    .values({ account_id: accountId, name: input.name.trim(), created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await saveLists(trx, accountId, id, input);
  return id;
}

export async function updateTeam(
  trx: Trx,
  accountId: number,
  id: number,
  input: Static<typeof TeamUpdateBody>,
  at: string,
): Promise<void> {
  const row = await findTeam(trx, accountId, id);
  if (!row) throw notFound(`Team ${id}`);
  await trx
    .updateTable('teams')
    .set({ name: input.name?.trim() ?? row.name, updated_at: at })
    .where('id', '=', id)
    .execute();
  await saveLists(trx, accountId, id, input);
}

/** Deletes a team; with `moveToTeamId`, that team takes over its members and leaders. */
export async function deleteTeam(
  trx: Trx,
  accountId: number,
  id: number,
  moveToTeamId: number | undefined,
): Promise<void> {
  if (!(await findTeam(trx, accountId, id))) throw notFound(`Team ${id}`);
  if (moveToTeamId !== undefined) {
    if (moveToTeamId === id || !(await findTeam(trx, accountId, moveToTeamId)))
      throw notFound(`Team ${moveToTeamId} (moveToTeamId)`);
    for (const table of ['team_members', 'team_leaders'] as UserListTable[]) {
      const lists = await userListsOf(trx, table, [id, moveToTeamId]);
      const merged = [...lists.get(moveToTeamId)!, ...lists.get(id)!];
      await replaceUserList(trx, table, moveToTeamId, merged);
    }
  }
  await trx.deleteFrom('teams').where('id', '=', id).execute();
}
