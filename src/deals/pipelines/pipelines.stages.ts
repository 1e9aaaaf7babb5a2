import type { Static } from '@sinclair/typebox';
import type { Trx } from '../../platform/db/database.js';
import { badRequest } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { placeByWeight } from '../../contacts/stages/weights.js';
import type { PipelineStageInput } from './pipelines.schemas.js';
import type { StageOutcome } from './pipelines.tables.js';
import { stagesOf, type PipelineStageRow } from './pipelines.repo.js';

// A pipeline's stages written from the stage objects of a create or update body.

type StageInput = Static<typeof PipelineStageInput>;

interface WorkingStage {
  /** database id, or a negative placeholder for a stage still to be created */
  id: number;
  weight: number;
  name: string;
  description: string;
  color: string;
  closed: number;
  outcome: StageOutcome | null;
}

/**
 * Applies stage objects to a pipeline's stages, in body order: with `id` they update that stage,
 * without they create one. Stages not mentioned stay as they are. Each requested orderWeight is
 * placed with the shared weight rule, so weights stay distinct multiples of 10.
 */
export async function applyStages(
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
    outcome: s.outcome,
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
      stage = {
        id: placeholder,
        weight: 0,
        name: '',
        description: '',
        color: '',
        closed: 0,
        outcome: null,
      };
      working.push(stage);
    }
    if (input.name !== undefined) stage.name = input.name.trim();
    if (input.description !== undefined) stage.description = input.description;
    if (input.color !== undefined) stage.color = input.color.trim();
    if (input.closedStage !== undefined) stage.closed = toBool(input.closedStage) ? 1 : 0;
    if (input.outcome !== undefined) stage.outcome = input.outcome;
    // A stage where deals are won or lost is a closed stage.
    if (stage.outcome) stage.closed = 1;
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
        outcome: stage.outcome,
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
      outcome: stage.outcome,
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
