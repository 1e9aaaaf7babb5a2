import type { Static } from '@sinclair/typebox';
import type { Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import {
  applyMovedWeights,
  lockRow,
  placeByWeight,
  type Weighted,
} from '../../contacts/stages/weights.js';
import type { PipelineCreateBody, PipelineUpdateBody } from './pipelines.schemas.js';
import { findPipeline, liveDealCount, stagesOf } from './pipelines.repo.js';
import { transactional } from '../../platform/db/transactional.js';
import { applyStages } from './pipelines.stages.js';

type CreateInput = Static<typeof PipelineCreateBody>;
type UpdateInput = Static<typeof PipelineUpdateBody>;

/*
 * Events. Pipeline events carry the pipeline id. Pipeline-stage events also carry the pipeline id
 * as their resource (so that the event's uri, /v1/pipelines/<id>, returns the stages to reconcile)
 * and name the stages in data.stageIds; one event per kind of change per request.
 */

async function pipelineSiblings(trx: Trx, accountId: number): Promise<Weighted[]> {
  const rows = await trx
    .selectFrom('pipelines')
    .select(['id', 'order_weight'])
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => ({ id: r.id, weight: r.order_weight }));
}

async function createPipelineIn(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  input: CreateInput,
  at: string,
): Promise<number> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const stages = input.stages ?? [];
  const withId = stages.findIndex((s) => s.id !== undefined);
  if (withId !== -1)
    throw badRequest(`stages[${withId}].id: a new pipeline's stages cannot carry an id`, [
      { field: `stages[${withId}].id`, message: 'not allowed on create' },
    ]);
  const before = await pipelineSiblings(trx, accountId);
  const weights = placeByWeight(before, { id: 0, requested: input.orderWeight });
  const { id } = await trx
    .insertInto('pipelines')
    .values({
      account_id: accountId,
      name: input.name.trim(),
      description: input.description ?? '',
      order_weight: weights.get(0)!,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await emit(trx, accountId, 'pipelineCreated', [id]);
  await applyMovedWeights(trx, 'pipelines', accountId, before, weights, 0, at);
  await applyStages(trx, accountId, id, stages, at);
  return id;
}

/** PUT: the pipeline's own fields given change; stage objects with id update, without id create; others stay. */
async function updatePipelineIn(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  id: number,
  input: UpdateInput,
  at: string,
): Promise<void> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const row = await findPipeline(trx, accountId, id);
  if (!row) throw notFound(`Pipeline ${id}`);
  const before = await pipelineSiblings(trx, accountId);
  const weights =
    input.orderWeight !== undefined && input.orderWeight !== row.order_weight
      ? placeByWeight(before, { id, requested: input.orderWeight, previous: row.order_weight })
      : null;
  const changes = {
    name: input.name?.trim() ?? row.name,
    description: input.description ?? row.description,
    order_weight: weights?.get(id) ?? row.order_weight,
  };
  if ((Object.keys(changes) as (keyof typeof changes)[]).some((k) => changes[k] !== row[k])) {
    await trx
      .updateTable('pipelines')
      .set({ ...changes, updated_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
    await emit(trx, accountId, 'pipelineUpdated', [id]);
  }
  if (weights) await applyMovedWeights(trx, 'pipelines', accountId, before, weights, id, at);
  if (input.stages) await applyStages(trx, accountId, id, input.stages, at);
}

async function deletePipelineIn(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  id: number,
): Promise<void> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const row = await findPipeline(trx, accountId, id);
  if (!row) throw notFound(`Pipeline ${id}`);
  const live = await liveDealCount(trx, accountId, { pipelineId: id });
  if (live > 0)
    throw conflict(`Pipeline '${row.name}' still has ${live} deal(s); move or delete them first`);
  const stageIds = (await stagesOf(trx, accountId, [id])).map((s) => s.id);
  await trx
    .deleteFrom('pipelines')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
  if (stageIds.length) await emit(trx, accountId, 'pipelineStageDeleted', [id], { stageIds });
  await emit(trx, accountId, 'pipelineDeleted', [id]);
}

async function deletePipelineStageIn(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  pipelineId: number,
  stageId: number,
): Promise<void> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const stage = await trx
    .selectFrom('pipeline_stages')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('pipeline_id', '=', pipelineId)
    .where('id', '=', stageId)
    .executeTakeFirst();
  if (!stage) throw notFound(`Stage ${stageId} of pipeline ${pipelineId}`);
  const live = await liveDealCount(trx, accountId, { pipelineId, stageId });
  if (live > 0)
    throw conflict(
      `Stage '${stage.name}' still has ${live} deal(s); move them to another stage first`,
    );
  await trx
    .deleteFrom('pipeline_stages')
    .where('account_id', '=', accountId)
    .where('id', '=', stageId)
    .execute();
  await emit(trx, accountId, 'pipelineStageDeleted', [pipelineId], { stageIds: [stageId] });
}

export const createPipeline = transactional(createPipelineIn);
export const updatePipeline = transactional(updatePipelineIn);
export const deletePipeline = transactional(deletePipelineIn);
export const deletePipelineStage = transactional(deletePipelineStageIn);
