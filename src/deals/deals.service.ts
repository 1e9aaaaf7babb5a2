import type { Static } from '@sinclair/typebox';
import type { Db, Trx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { notFound } from '../platform/http/errors.js';
import { defaultDealUsers } from '../access/ownership.js';
import { emit } from '../accounts/webhooks/outbox.js';
import { noteDealStageEntered } from '../marketing/automations/triggers.js';
import type { DealCreateBody, DealUpdateBody } from './deals.schemas.js';
import {
  findVisibleDeal,
  insertDeal,
  linksOf,
  replaceLinks,
  updateDealColumns,
} from './deals.repo.js';
import {
  applyDealInput,
  dealColumns,
  type DealState,
  dealStateFromRow,
  emptyDealState,
} from './deals.input.js';

/** Creates a deal with its links and the dealsCreated event, in one transaction. */
export function createDeal(
  db: Db,
  auth: AuthUser,
  input: Static<typeof DealCreateBody>,
  at: string,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const state = await applyDealInput(trx, auth, emptyDealState(), input);
    if (input.userIds === undefined) state.userIds = defaultDealUsers(auth, state.userIds);
    const id = await insertDeal(trx, auth, dealColumns(state), at);
    await replaceLinks(trx, auth.accountId, id, 'deal_people', state.peopleIds);
    await replaceLinks(trx, auth.accountId, id, 'deal_users', state.userIds);
    await emit(trx, auth.accountId, 'dealsCreated', [id]);
    await noteDealStageEntered(trx, auth.accountId, id, state);
    return id;
  });
}

/**
 * Looks up a deal the caller sees (404 otherwise), then lets `authorize` refuse the change: an
 * unseen deal stays a 404 for a caller whose role may not change deals.
 */
async function lockVisibleDeal(trx: Trx, auth: AuthUser, id: number, authorize: () => void) {
  const row = await findVisibleDeal(trx, auth, id);
  if (!row) throw notFound(`Deal ${id}`);
  authorize();
  return row;
}

/** Stores the fields sent; fires dealsUpdated only when something actually changed. */
export function updateDeal(
  db: Db,
  auth: AuthUser,
  id: number,
  input: Static<typeof DealUpdateBody>,
  at: string,
  authorize: () => void,
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const row = await lockVisibleDeal(trx, auth, id, authorize);
    const links = await linksOf(trx, auth.accountId, [row.id]);
    const before = dealStateFromRow(row, {
      people: links.people.get(row.id) ?? [],
      users: links.users.get(row.id) ?? [],
    });
    const after = await applyDealInput(trx, auth, before, input);
    const same = (k: keyof DealState) => JSON.stringify(before[k]) === JSON.stringify(after[k]);
    const changed = (Object.keys(after) as (keyof DealState)[]).filter((k) => !same(k));
    if (changed.length === 0) return;
    const restored =
      before.status === 'Deleted' && after.status !== 'Deleted' ? { deleted_at: null } : {};
    await updateDealColumns(trx, auth.accountId, row.id, {
      ...dealColumns(after),
      ...restored,
      ...(changed.includes('stageId') ? { entered_stage_at: at } : {}),
      updated_at: at,
    });
    if (changed.includes('peopleIds'))
      await replaceLinks(trx, auth.accountId, row.id, 'deal_people', after.peopleIds);
    if (changed.includes('userIds'))
      await replaceLinks(trx, auth.accountId, row.id, 'deal_users', after.userIds);
    await emit(trx, auth.accountId, 'dealsUpdated', [row.id]);
    if (changed.includes('stageId')) await noteDealStageEntered(trx, auth.accountId, row.id, after);
  });
}

/** Soft delete: the deal keeps its data with status Deleted and leaves the lists. Repeating it is a no-op. */
export function softDeleteDeal(
  db: Db,
  auth: AuthUser,
  id: number,
  at: string,
  authorize: () => void,
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const row = await lockVisibleDeal(trx, auth, id, authorize);
    if (row.status === 'Deleted') return;
    await updateDealColumns(trx, auth.accountId, row.id, {
      status: 'Deleted',
      deleted_at: at,
      updated_at: at,
    });
    await emit(trx, auth.accountId, 'dealsDeleted', [row.id]);
  });
}
