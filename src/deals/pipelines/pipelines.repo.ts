import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import { containsText } from '../../platform/db/text-match.js';
import './pipelines.tables.js';
import '../deals.tables.js';
import type { PipelineStagesTable, PipelinesTable } from './pipelines.tables.js';

export type PipelineRow = Selectable<PipelinesTable>;
export type PipelineStageRow = Selectable<PipelineStagesTable>;

export function pipelinesQuery(db: DbOrTrx, accountId: number) {
  return db
    .selectFrom('pipelines')
    .selectAll('pipelines')
    .where('pipelines.account_id', '=', accountId);
}

/** The pipelines list with its filter (name contains). */
export function pipelinesList(db: DbOrTrx, accountId: number, filters: { name?: string }) {
  const query = pipelinesQuery(db, accountId);
  return filters.name ? query.where(containsText('pipelines.name', filters.name)) : query;
}

export async function findPipeline(
  db: DbOrTrx,
  accountId: number,
  id: number,
): Promise<PipelineRow | undefined> {
  return pipelinesQuery(db, accountId).where('pipelines.id', '=', id).executeTakeFirst();
}

/** The stages of the given pipelines, in board order. */
export async function stagesOf(
  db: DbOrTrx,
  accountId: number,
  pipelineIds: number[],
): Promise<PipelineStageRow[]> {
  if (pipelineIds.length === 0) return [];
  return db
    .selectFrom('pipeline_stages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('pipeline_id', 'in', pipelineIds)
    .orderBy('order_weight')
    .orderBy('id')
    .execute();
}

export function presentPipelineStage(row: PipelineStageRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    orderWeight: row.order_weight,
    color: row.color,
    closedStage: row.closed_stage === 1,
    outcome: row.outcome,
  };
}

export function presentPipeline(row: PipelineRow, stages: PipelineStageRow[]) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    orderWeight: row.order_weight,
    stages: stages.filter((s) => s.pipeline_id === row.id).map(presentPipelineStage),
    created: row.created_at,
    updated: row.updated_at,
  };
}

/** Live deals (not soft-deleted) in a pipeline, or in one of its stages. */
export async function liveDealCount(
  db: DbOrTrx,
  accountId: number,
  where: { pipelineId: number; stageId?: number },
): Promise<number> {
  let query = db
    .selectFrom('deals')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('pipeline_id', '=', where.pipelineId)
    .where('status', '<>', 'Deleted');
  if (where.stageId !== undefined) query = query.where('stage_id', '=', where.stageId);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}
