import { type ExpressionBuilder, sql } from 'kysely';
import type { DB, DbOrTrx } from '../platform/db/database.js';
import type { AuthUser } from '../accounts/auth/authenticate.js';
import { canSeeDeal } from '../access/visibility.js';
import { isoSeconds } from '../platform/time.js';
import type { Period } from './reports.period.js';

interface Totals {
  deals: number;
  value: number;
}
interface StageTotals extends Totals {
  pipelineId: number;
  pipelineName: string;
  stageId: number;
  stageName: string;
}

function add<K>(map: Map<K, Totals>, key: K, deals: number, value: number) {
  const t = map.get(key) ?? { deals: 0, value: 0 };
  t.deals += deals;
  t.value += value;
  map.set(key, t);
}

const byMonth = (map: Map<string, Totals>) =>
  [...map].sort(([a], [b]) => a.localeCompare(b)).map(([month, t]) => ({ month, ...t }));

/**
 * The deals the user sees (not Deleted): now, by pipeline and stage; closed in the period (entered
 * a closed stage), by month; still open and expected to close in the period, by month. One pass
 * over the visible deals, grouped by stage and the two months (a few hundred groups at most), so
 * an Agent's visibility is checked once per deal, not once per figure.
 */
export async function pipelineReport(
  db: DbOrTrx,
  auth: AuthUser,
  period: Period,
  pipelineId: number | undefined,
) {
  const lastDay = isoSeconds(period.untilMs - 1).slice(0, 10);
  let query = db
    .selectFrom('deals')
    .innerJoin('pipeline_stages as s', 's.id', 'deals.stage_id')
    .innerJoin('pipelines as p', 'p.id', 's.pipeline_id')
    .where('deals.account_id', '=', auth.accountId)
    .where('deals.status', '<>', 'Deleted')
    .where((eb) => canSeeDeal(eb as unknown as ExpressionBuilder<DB, 'deals'>, auth));
  if (pipelineId !== undefined) query = query.where('deals.pipeline_id', '=', pipelineId);
  const closedMonth = sql<string | null>`case when s.closed_stage = 1
      and deals.entered_stage_at >= ${period.since} and deals.entered_stage_at < ${period.until}
      then substr(deals.entered_stage_at, 1, 7) end`;
  const expectedMonth = sql<string | null>`case when s.closed_stage = 0
      and deals.projected_close_date >= ${period.since.slice(0, 10)}
      and deals.projected_close_date <= ${lastDay}
      then substr(deals.projected_close_date, 1, 7) end`;
  // Grouped outside: PostgreSQL takes a grouped expression with parameters only by its name.
  const deals = query.select([
    'p.id as pipelineId',
    'p.name as pipelineName',
    'p.order_weight as pipelineOrder',
    's.id as stageId',
    's.name as stageName',
    's.order_weight as stageOrder',
    closedMonth.as('closedMonth'),
    expectedMonth.as('expectedMonth'),
    'deals.price',
  ]);
  const keys = [
    'pipelineId',
    'pipelineName',
    'pipelineOrder',
    'stageId',
    'stageName',
    'stageOrder',
    'closedMonth',
    'expectedMonth',
  ] as const;
  const rows = await db
    .selectFrom(deals.as('d'))
    .select([
      ...keys,
      sql<number | string>`count(*)`.as('deals'),
      sql<number | string | null>`sum(coalesce(d.price, 0))`.as('value'),
    ])
    .groupBy([...keys])
    .execute();
  const stages = new Map<number, StageTotals & { order: [number, number, number] }>();
  const closed = new Map<string, Totals>();
  const expected = new Map<string, Totals>();
  for (const r of rows) {
    const deals = Number(r.deals);
    const value = Number(r.value ?? 0);
    const stage = stages.get(r.stageId) ?? {
      pipelineId: r.pipelineId,
      pipelineName: r.pipelineName,
      stageId: r.stageId,
      stageName: r.stageName,
      deals: 0,
      value: 0,
      order: [Number(r.pipelineOrder), r.pipelineId, Number(r.stageOrder)],
    };
    stage.deals += deals;
    stage.value += value;
    stages.set(r.stageId, stage);
    if (r.closedMonth !== null) add(closed, r.closedMonth, deals, value);
    if (r.expectedMonth !== null) add(expected, r.expectedMonth, deals, value);
  }
  const ordered = [...stages.values()].sort(
    (a, b) =>
      a.order[0] - b.order[0] ||
      a.order[1] - b.order[1] ||
      a.order[2] - b.order[2] ||
      a.stageId - b.stageId,
  );
  return {
    since: period.since,
    until: period.until,
    stages: ordered.map(({ order: _order, ...s }) => s),
    closedByMonth: byMonth(closed),
    expectedByMonth: byMonth(expected),
  };
}
