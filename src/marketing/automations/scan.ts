import { sql } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { pollingLoop } from '../../platform/jobs/loop.js';
import type { BackgroundJob } from '../../platform/jobs/types.js';
import { isoSeconds } from '../../platform/time.js';
import type { TriggerInput } from './automations.schemas.js';
import { startQualifying } from './triggers.js';

/** How often the scheduled triggers look for people whose time came. */
export const SCAN_EVERY_MS = 60_000;
const DAY_MS = 86_400_000;

type Scheduled = Extract<TriggerInput, { type: 'dateReached' | 'noContact' }>;

/**
 * The people whose date fell in (from, to], read through the (account_id, created_at) and
 * (account_id, coalesce(last_activity, '')) indexes of people: a scan reads only the people of
 * its window, however many the account has.
 */
async function peopleInWindow(
  trx: Trx,
  accountId: number,
  trigger: Scheduled,
  fromMs: number,
  toMs: number,
): Promise<number[]> {
  const back = (trigger.type === 'noContact' ? trigger.days : trigger.offsetDays) * DAY_MS;
  const from = isoSeconds(fromMs - back);
  const to = isoSeconds(toMs - back);
  const created = trx
    .selectFrom('people')
    .select('id')
    .where('account_id', '=', accountId)
    .where('created_at', '>', from)
    .where('created_at', '<=', to);
  if (trigger.type === 'dateReached') return (await created.execute()).map((r) => r.id);
  const lastActivity = sql<string>`coalesce(last_activity, '')`;
  const contacted = await trx
    .selectFrom('people')
    .select('id')
    .where('account_id', '=', accountId)
    .where(lastActivity, '>', from)
    .where(lastActivity, '<=', to)
    .execute();
  // Never in touch at all: counted from when they were created.
  const never = await created.where('last_activity', 'is', null).execute();
  return [...contacted, ...never].map((r) => r.id);
}

/**
 * One round: each Active automation with a scheduled trigger starts the people whose time came
 * since its last look, and moves its mark, in one transaction. The mark moves only from where this
 * round read it, so two workers never scan the same window.
 */
export async function scanScheduledTriggers(ctx: AppContext): Promise<number> {
  const toMs = ctx.clock.now();
  const to = isoSeconds(toMs);
  const due = await ctx.db
    .selectFrom('automations')
    .select(['id', 'account_id', 'trigger', 'scanned_until'])
    .where('status', '=', 'Active')
    .where('trigger_type', 'in', ['dateReached', 'noContact'])
    .where('scanned_until', '<', to)
    .execute();
  let started = 0;
  for (const automation of due) {
    const trigger = JSON.parse(automation.trigger) as Scheduled;
    started += await ctx.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('automations')
        .set({ scanned_until: to })
        .where('id', '=', automation.id)
        .where('scanned_until', '=', automation.scanned_until)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return 0;
      const fromMs = Date.parse(automation.scanned_until!);
      const people = await peopleInWindow(trx, automation.account_id, trigger, fromMs, toMs);
      const runs = await startQualifying(ctx, trx, { ...automation, trigger }, people);
      return runs.length;
    });
  }
  return started;
}

/** The background job that fires dateReached and noContact triggers. */
export function automationScanJob(ctx: AppContext): BackgroundJob {
  return pollingLoop(ctx, {
    name: 'automation-scan',
    pollMs: SCAN_EVERY_MS,
    async tick() {
      await scanScheduledTriggers(ctx);
      return false;
    },
  });
}
