import { sql } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { insertRows } from '../../platform/db/reusable-query.js';
import { enqueueJobs } from '../../platform/jobs/queue.js';
import { isoSeconds } from '../../platform/time.js';
import { LIVE_STATUSES } from './automations.repo.js';

export const AUTOMATION_RUN_JOB = 'automationRun';
/**
 * Runs one person may start in 24 hours, over all automations: automations that set off one
 * another (A adds a tag that starts B, which changes a stage that starts A) stop here.
 */
export const RUNS_PER_PERSON_PER_DAY = 20;
const DAY_MS = 86_400_000;
/** Rows per INSERT of new runs. */
const RUNS_PER_INSERT = 500;

export interface RunPayload {
  runId: number;
}

/** Of `personIds`, those under the daily ceiling and not already in a live run of the automation. */
async function mayStart(
  trx: Trx,
  accountId: number,
  automationId: number,
  personIds: number[],
  nowMs: number,
): Promise<number[]> {
  const since = isoSeconds(nowMs - DAY_MS);
  const counts = await trx
    .selectFrom('automation_runs')
    .select([
      'person_id',
      (eb) => eb.fn.countAll<number>().as('today'),
      (eb) =>
        eb.fn
          .sum<number>(
            sql<number>`case when ${eb.ref('automation_id')} = ${automationId} and ${eb.ref('status')} in (${sql.join(LIVE_STATUSES)}) then 1 else 0 end`,
          )
          .as('live'),
    ])
    .where('account_id', '=', accountId)
    .where('person_id', 'in', personIds)
    .where('created_at', '>=', since)
    .groupBy('person_id')
    .execute();
  const blocked = new Set(
    counts
      .filter((c) => Number(c.today) >= RUNS_PER_PERSON_PER_DAY || Number(c.live) > 0)
      .map((c) => Number(c.person_id)),
  );
  const olderLive = await trx
    .selectFrom('automation_runs')
    .select('person_id')
    .where('automation_id', '=', automationId)
    .where('person_id', 'in', personIds)
    .where('status', 'in', LIVE_STATUSES)
    .where('created_at', '<', since)
    .execute();
  for (const row of olderLive) blocked.add(Number(row.person_id));
  return personIds.filter((id) => !blocked.has(id));
}

/**
 * Starts an automation for people, in the caller's transaction: a run row each (Initial) and its
 * job. People at the daily ceiling or already running this automation are left out; answers the
 * new runs' ids (in the order of `personIds`).
 */
export async function startRuns(
  ctx: Pick<AppContext, 'clock'>,
  trx: Trx,
  accountId: number,
  automationId: number,
  personIds: number[],
): Promise<number[]> {
  const nowMs = ctx.clock.now();
  const at = isoSeconds(nowMs);
  const started: number[] = [];
  const unique = [...new Set(personIds)];
  for (let i = 0; i < unique.length; i += RUNS_PER_INSERT) {
    const allowed = await mayStart(
      trx,
      accountId,
      automationId,
      unique.slice(i, i + RUNS_PER_INSERT),
      nowMs,
    );
    const rows = allowed.map((personId) => ({
      account_id: accountId,
      automation_id: automationId,
      person_id: personId,
      status: 'Initial' as const,
      wake_at: null,
      created_at: at,
      updated_at: at,
    }));
    const inserted = await insertRows(trx, 'automation_runs', rows, { returning: 'id' });
    started.push(...inserted.map((r) => Number(r.id)));
  }
  await enqueueJobs(
    ctx,
    trx,
    started.map((runId) => ({
      accountId,
      kind: AUTOMATION_RUN_JOB,
      payload: { runId } satisfies RunPayload,
    })),
  );
  return started;
}
