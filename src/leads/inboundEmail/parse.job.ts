import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from '../../platform/context.js';
import { pollingLoop } from '../../platform/jobs/loop.js';
import { claimJobs, completeJobs, failJob, type JobRow } from '../../platform/jobs/queue.js';
import type { BackgroundJobFactory } from '../../platform/jobs/types.js';
import { type Actors, applyDecoded, STORED_COLUMNS } from './parse.js';
import { ParsePool, UndecodableMail } from './parse-pool.js';
import { PARSE_JOB } from './store.js';

/** Messages claimed at once: read in one query, decoded on the pool, their jobs closed in one. */
const BATCH = 50;
const LEASE_MS = 120_000;
const RETRY_SCHEDULE = [5, 30, 120, 600];
/** Leads applied at once: enough to overlap PostgreSQL's round trips, few enough that a turn of
 * the event loop (SQLite writes synchronously) stays a few milliseconds long. */
const APPLY_CONCURRENCY = 4;

/** Runs `apply` over the items, `lanes` at a time, each item in its own turn of the event loop so
 * requests waiting on the API are answered between leads. */
async function inTurns<T>(items: T[], lanes: number, apply: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      await nextTurn();
      await apply(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
}

async function parseBatch(ctx: AppContext, pool: ParsePool, jobs: JobRow[]): Promise<void> {
  const ids = jobs.map(
    (job) => (JSON.parse(job.payload) as { inboundEmailId: number }).inboundEmailId,
  );
  const rows = await ctx.db
    .selectFrom('inbound_emails')
    .select(STORED_COLUMNS)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const actors: Actors = new Map();
  const done: number[] = [];
  // Decoding runs on the pool's threads, all at once; the leads are applied a few at a time.
  const decoding = ids.map((id) => {
    const row = byId.get(id);
    if (!row || row.status !== 'received') return undefined;
    return pool.decode(row.raw).catch((err: unknown) => {
      if (err instanceof UndecodableMail) return err;
      throw err;
    });
  });
  decoding.forEach((d) => d?.catch(() => undefined)); // awaited below, in its job's turn
  await inTurns([...jobs.keys()], APPLY_CONCURRENCY, async (i) => {
    const job = jobs[i];
    try {
      const row = byId.get(ids[i]);
      const decoded = await decoding[i];
      if (row && decoded) await applyDecoded(ctx, row, decoded, false, actors);
      done.push(job.id);
    } catch (err) {
      const outcome = await failJob(ctx.db, job, err as Error, RETRY_SCHEDULE, ctx.clock.now());
      ctx.log.warn(
        { job: 'inbound email parsing', jobId: job.id, outcome, err: (err as Error).message },
        'queued job failed',
      );
    }
  });
  await completeJobs(ctx.db, done, ctx.clock.now());
}

/**
 * Parses received messages from the store (any worker; a crash leaves the jobs to run again once
 * their lease ends, and a message already parsed is not parsed twice).
 */
export const inboundParseJob: BackgroundJobFactory = (ctx) => {
  const pool = new ParsePool();
  const loop = pollingLoop(ctx, {
    name: 'inbound email parsing',
    pollMs: 100,
    async tick() {
      const jobs = await claimJobs(ctx, PARSE_JOB, BATCH, LEASE_MS);
      if (jobs.length) await parseBatch(ctx, pool, jobs);
      return jobs.length === BATCH;
    },
  });
  return {
    name: loop.name,
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      await pool.close();
    },
  };
};
