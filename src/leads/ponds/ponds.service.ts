import type { Static } from '@sinclair/typebox';
import type { Trx } from '../../platform/db/database.js';
import { notFound } from '../../platform/http/errors.js';
import { assertAccountUsers, replaceUserList } from '../../accounts/users/userLists.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import type { PondCreateBody, PondUpdateBody } from './ponds.schemas.js';
import { findPond } from '../../contacts/people/assignment.js';

type PondInput = Static<typeof PondUpdateBody> | Static<typeof PondCreateBody>;

async function checkUsers(trx: Trx, accountId: number, input: PondInput): Promise<void> {
  if (input.userId) await assertAccountUsers(trx, accountId, [input.userId], 'userId');
  if (input.userIds) await assertAccountUsers(trx, accountId, input.userIds, 'userIds');
}

export async function createPond(
  trx: Trx,
  accountId: number,
  input: Static<typeof PondCreateBody>,
  at: string,
): Promise<number> {
  await checkUsers(trx, accountId, input);
  const { id } = await trx
    .insertInto('ponds')
    .values({
      account_id: accountId,
      name: input.name.trim(),
      user_id: input.userId ?? null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await replaceUserList(trx, 'pond_members', id, input.userIds ?? []);
  return id;
}

export async function updatePond(
  trx: Trx,
  accountId: number,
  id: number,
  input: Static<typeof PondUpdateBody>,
  at: string,
): Promise<void> {
  const row = (await findPond(trx, accountId, id)) ?? notFoundPond(id);
  await checkUsers(trx, accountId, input);
  await trx
    .updateTable('ponds')
    .set({
      name: input.name?.trim() ?? row.name,
      user_id: input.userId === undefined ? row.user_id : input.userId,
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
  if (input.userIds !== undefined) await replaceUserList(trx, 'pond_members', id, input.userIds);
}

/**
 * Deletes a pond; its people are handed to `assignTo` (they leave the pond and get that agent),
 * and each fires peopleUpdated.
 */
export async function deletePond(
  trx: Trx,
  accountId: number,
  id: number,
  assignTo: number,
  at: string,
): Promise<void> {
  if (!(await findPond(trx, accountId, id))) notFoundPond(id);
  await assertAccountUsers(trx, accountId, [assignTo], 'assignTo');
  const people = await trx
    .updateTable('people')
    .set({ assigned_pond_id: null, assigned_user_id: assignTo, updated_at: at })
    .where('account_id', '=', accountId)
    .where('assigned_pond_id', '=', id)
    .returning('id')
    .execute();
  await trx.deleteFrom('ponds').where('id', '=', id).execute();
  await emit(
    trx,
    accountId,
    'peopleUpdated',
    people.map((p) => p.id),
  );
}

function notFoundPond(id: number): never {
  throw notFound(`Pond ${id}`);
}
