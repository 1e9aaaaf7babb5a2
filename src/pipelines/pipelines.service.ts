import type { Static } from '@sinclair/typebox';
import type { Trx } from '../db/database.js';
import type { DialectName } from '../db/dialect.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { toBool } from '../http/schemas.js';
import { emit } from '../webhooks/outbox.js';
import { lockRow, movedIds, placeByWeight, type Weighted } from '../stages/weights.js';
import type {
  PipelineCreateBody,
  PipelineStageInput,
  PipelineUpdateBody,
} from './pipelines.schemas.js';
import { findPipeline, liveDealCount, stagesOf, type PipelineStageRow } from './pipelines.repo.js';
import { transactional } from '../db/transactional.js';

type StageInput = Static<typeof PipelineStageInput>;
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

/** Renumbers the other pipelines after `targetId` was placed and fires pipelineUpdated for each that moved. */
async function applyPipelineWeights(
  trx: Trx,
  accountId: number,
  before: Weighted[],
  weights: Map<number, number>,
  targetId: number,
  at: string,
) {
  const moved = movedIds(before, weights, targetId).sort(
    (a, b) => weights.get(a)! - weights.get(b)!,
  );
  for (const id of moved) {
    await trx
      .updateTable('pipelines')
      .set({ order_weight: weights.get(id)!, updated_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }
  for (const id of moved) await emit(trx, accountId, 'pipelineUpdated', [id]);
}

interface WorkingStage {
  /** database id, or a negative placeholder for a stage still to be created */
  id: number;
  weight: number;
  name: string;
  description: string;
  color: string;
  closed: number;
}

/**
 * Applies stage objects to a pipeline's stages, in body order: with `id` they update that stage,
 * without they create one. Stages not mentioned stay as they are. Each requested orderWeight is
 * placed with the shared weight rule, so weights stay distinct multiples of 10.
 */
async function applyStages(
  trx: Trx,
  accountId: number,
  pipelineId: number,
  inputs: StageInput[],
  at: string,
): Promise<void> {
  const existing = await stagesOf(trx, accountId, [pipelineId]);
  const original = new Map<number, PipelineStageRow>(existing.map((s) => [s.id, s]));
  const working: WorkingStage[] = existing.map((s) => ({
    id: s.id,
    weight: s.order_weight,
    name: s.name,
    description: s.description,
    color: s.color,
    closed: s.closed_stage,
  }));
  const seen = new Set<number>();
  let placeholder = 0;
  inputs.forEach((input, index) => {
    const where = `stages[${index}]`;
    let stage: WorkingStage;
    let previous: number | undefined;
    if (input.id !== undefined) {
      if (seen.has(input.id))
        throw badRequest(`${where}.id: stage ${input.id} appears twice`, [
          { field: `${where}.id`, message: 'duplicate' },
        ]);
      seen.add(input.id);
      const found = working.find((s) => s.id === input.id);
      if (!found) {
        throw badRequest(
          `${where}.id: pipeline ${pipelineId} has no stage ${input.id}; omit id to create a stage`,
          [{ field: `${where}.id`, message: 'unknown stage' }],
        );
      }
      stage = found;
      previous = stage.weight;
    } else {
      if (input.name === undefined)
        throw badRequest(`${where}.name is required for a new stage`, [
          { field: `${where}.name`, message: 'required' },
        ]);
      placeholder -= 1;
      stage = { id: placeholder, weight: 0, name: '', description: '', color: '', closed: 0 };
      working.push(stage);
    }
    if (input.name !== undefined) stage.name = input.name.trim();
    if (input.description !== undefined) stage.description = input.description;
    if (input.color !== undefined) stage.color = input.color.trim();
    if (input.closedStage !== undefined) stage.closed = toBool(input.closedStage) ? 1 : 0;
    const isNew = stage.id < 0;
    if (isNew || (input.orderWeight !== undefined && input.orderWeight !== previous)) {
      const weights = placeByWeight(
        working.map((s) => ({ id: s.id, weight: s.weight })),
        {
          id: stage.id,
          requested: input.orderWeight,
          previous: isNew ? undefined : previous,
        },
      );
      for (const s of working) s.weight = weights.get(s.id)!;
    }
  });

  const created: number[] = [];
  for (const stage of working.filter((s) => s.id < 0).sort((a, b) => a.weight - b.weight)) {
    const { id } = await trx
      .insertInto('pipeline_stages')
      .values({
        account_id: accountId,
        pipeline_id: pipelineId,
        name: stage.name,
        description: stage.description,
        order_weight: stage.weight,
        color: stage.color,
        closed_stage: stage.closed,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    created.push(id);
  }
  const updated: number[] = [];
  for (const stage of working.filter((s) => s.id > 0).sort((a, b) => a.weight - b.weight)) {
    const before = original.get(stage.id)!;
    const changes = {
      name: stage.name,
      description: stage.description,
      order_weight: stage.weight,
      color: stage.color,
      closed_stage: stage.closed,
    };
    if ((Object.keys(changes) as (keyof typeof changes)[]).every((k) => changes[k] === before[k]))
      continue;
    await trx
      .updateTable('pipeline_stages')
      .set({ ...changes, updated_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', stage.id)
      .execute();
    updated.push(stage.id);
  }
  if (created.length)
    await emit(trx, accountId, 'pipelineStageCreated', [pipelineId], { stageIds: created });
  if (updated.length)
    await emit(trx, accountId, 'pipelineStageUpdated', [pipelineId], { stageIds: updated });
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
  await applyPipelineWeights(trx, accountId, before, weights, 0, at);
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
  if (weights) await applyPipelineWeights(trx, accountId, before, weights, id, at);
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
