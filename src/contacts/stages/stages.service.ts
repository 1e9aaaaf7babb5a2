import type { Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { applyMovedWeights, lockRow, placeByWeight, type Weighted } from './weights.js';
import { transactional } from '../../platform/db/transactional.js';

/** People moved by a stage deletion are announced in batches of this many ids (interface rule 9). */
export const PEOPLE_EVENT_BATCH = 100;

async function siblings(
  trx: Trx,
  accountId: number,
): Promise<(Weighted & { name: string; is_protected: number })[]> {
  const rows = await trx
    .selectFrom('stages')
    .select(['id', 'order_weight', 'name', 'is_protected'])
    .where('account_id', '=', accountId)
    .orderBy('order_weight')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    weight: r.order_weight,
    name: r.name,
    is_protected: r.is_protected,
  }));
}

async function assertNameFree(
  trx: Trx,
  accountId: number,
  name: string,
  exceptId?: number,
): Promise<void> {
  let query = trx
    .selectFrom('stages')
    .select('id')
    .where('account_id', '=', accountId)
    .where('name', '=', name);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw conflict(`A stage named '${name}' already exists`);
}

async function createStageIn(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  input: { name: string; orderWeight?: number },
  at: string,
): Promise<number> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const name = input.name.trim();
  await assertNameFree(trx, accountId, name);
  const before = await siblings(trx, accountId);
  // A placeholder id (0) stands for the new stage while the order is computed.
  const weights = placeByWeight(before, { id: 0, requested: input.orderWeight });
  const { id } = await trx
    .insertInto('stages')
    .values({
      account_id: accountId,
      name,
      order_weight: weights.get(0)!,
      is_protected: 0,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await emit(trx, accountId, 'stageCreated', [id]);
  await applyMovedWeights(trx, 'stages', accountId, before, weights, 0, at);
  return id;
}

async function updateStageIn(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  id: number,
  input: { name?: string; orderWeight?: number },
  at: string,
): Promise<void> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const before = await siblings(trx, accountId);
  const stage = before.find((s) => s.id === id);
  if (!stage) throw notFound(`Stage ${id}`);
  const name = input.name?.trim();
  const renamed = name !== undefined && name !== stage.name;
  if (renamed && stage.is_protected === 1) {
    throw badRequest(`Stage '${stage.name}' is protected: its name cannot be changed`, [
      { field: 'name', message: 'protected stage' },
    ]);
  }
  if (renamed) await assertNameFree(trx, accountId, name, id);
  const reweighed = input.orderWeight !== undefined && input.orderWeight !== stage.weight;
  const weights = reweighed
    ? placeByWeight(before, { id, requested: input.orderWeight, previous: stage.weight })
    : null;
  const weight = weights?.get(id) ?? stage.weight;
  if (!renamed && weight === stage.weight && !weights) return;
  if (renamed || weight !== stage.weight) {
    await trx
      .updateTable('stages')
      .set({ ...(renamed ? { name } : {}), order_weight: weight, updated_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
    await emit(trx, accountId, 'stageUpdated', [id]);
  }
  if (weights) await applyMovedWeights(trx, 'stages', accountId, before, weights, id, at);
}

/**
 * Deletes a stage. Its people move to `assignStageId` (required when there are any), which fires
 * peopleUpdated and peopleStageUpdated for them as a stage change on PUT /v1/people does; the
 * definition's removal fires stageDeleted. The remaining weights are left as they are.
 */
async function deleteStageIn(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  id: number,
  assignStageId: number | undefined,
  at: string,
): Promise<void> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const all = await siblings(trx, accountId);
  const stage = all.find((s) => s.id === id);
  if (!stage) throw notFound(`Stage ${id}`);
  if (stage.is_protected === 1)
    throw badRequest(`Stage '${stage.name}' is protected and cannot be deleted`);
  const people = await trx
    .selectFrom('people')
    .select('id')
    .where('account_id', '=', accountId)
    .where('stage_id', '=', id)
    .orderBy('id')
    .execute();
  let target: (typeof all)[number] | undefined;
  if (assignStageId !== undefined) {
    target = all.find((s) => s.id === assignStageId);
    if (!target)
      throw badRequest(`assignStageId: no stage ${assignStageId} in this account`, [
        { field: 'assignStageId', message: 'unknown stage' },
      ]);
    if (target.id === id)
      throw badRequest('assignStageId must name a different stage than the one being deleted', [
        { field: 'assignStageId', message: 'same stage' },
      ]);
  }
  if (people.length > 0) {
    if (!target) {
      throw badRequest(
        `Stage '${stage.name}' has ${people.length} people; give assignStageId (query or body) to move them to another stage`,
        [{ field: 'assignStageId', message: 'required when the stage has people' }],
      );
    }
    await trx
      .updateTable('people')
      .set({ stage_id: target.id, updated_at: at })
      .where('account_id', '=', accountId)
      .where('stage_id', '=', id)
      .execute();
    const ids = people.map((p) => p.id);
    for (let i = 0; i < ids.length; i += PEOPLE_EVENT_BATCH) {
      const batch = ids.slice(i, i + PEOPLE_EVENT_BATCH);
      await emit(trx, accountId, 'peopleUpdated', batch);
      await emit(trx, accountId, 'peopleStageUpdated', batch, { stage: target.name });
    }
  }
  await trx.deleteFrom('stages').where('account_id', '=', accountId).where('id', '=', id).execute();
  await emit(trx, accountId, 'stageDeleted', [id]);
}

export const createStage = transactional(createStageIn);
export const updateStage = transactional(updateStageIn);
export const deleteStage = transactional(deleteStageIn);
