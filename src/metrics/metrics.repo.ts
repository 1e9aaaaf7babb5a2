import type { DbOrTrx } from '../db/database.js';
import '../webhooks/webhooks.tables.js';
import '../jobs/jobs.tables.js';

/** Webhook deliveries and jobs due at `now` (ISO): how many, and the oldest's due time. */
export async function dueWork(db: DbOrTrx, now: string) {
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('next_attempt_at').as('oldest')])
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .executeTakeFirstOrThrow();
  const jobs = await db
    .selectFrom('lead_jobs')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('run_at').as('oldest')])
    .where('status', '=', 'pending')
    .where('run_at', '<=', now)
    .executeTakeFirstOrThrow();
  return { deliveries, jobs };
}
