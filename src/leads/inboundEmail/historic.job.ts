import type { AppContext } from '../../platform/context.js';
import { extendLease } from '../../platform/jobs/queue.js';
import { queueWorker } from '../../platform/jobs/queue-worker.js';
import type { BackgroundJobFactory } from '../../platform/jobs/types.js';
import { isoSeconds } from '../../platform/time.js';
import { HISTORIC_JOB } from './historic.js';
import { type ParseOutcome, parseInbound } from './parse.js';

const LEASE_MS = 30_000;
const COUNTER: Partial<Record<ParseOutcome, 'created' | 'updated' | 'skipped'>> = {
  created: 'created',
  updated: 'updated',
  unparsed: 'skipped',
  ignored: 'skipped',
  done: 'skipped',
};

/**
 * Parses an mbox upload's messages in file order as history (`Historic Email Parsing`, created at
 * the email's date, no notification or action plan). Each message's outcome is committed as it
 * goes, so a worker that dies leaves the rest to the next one.
 */
async function runHistoric(ctx: AppContext, jobId: number, historicId: number) {
  const now = () => isoSeconds(ctx.clock.now());
  await ctx.db
    .updateTable('inbound_historic')
    .set({ status: 'running', updated_at: now() })
    .where('id', '=', historicId)
    .where('status', '=', 'queued')
    .execute();
  for (;;) {
    const next = await ctx.db
      .selectFrom('inbound_emails')
      .select(['id', 'seq'])
      .where('historic_id', '=', historicId)
      .where('status', '=', 'received')
      .orderBy('seq')
      .limit(50)
      .execute();
    if (!next.length) break;
    for (const { id, seq } of next) {
      const outcome = await parseInbound(ctx, id, true);
      const counter = COUNTER[outcome];
      await ctx.db
        .updateTable('inbound_historic')
        .set((eb) => ({
          processed: eb('processed', '+', 1),
          ...(counter ? { [counter]: eb(counter, '+', 1) } : {}),
          updated_at: now(),
        }))
        .where('id', '=', historicId)
        .execute();
      if (outcome === 'rejected') {
        const row = await ctx.db
          .selectFrom('inbound_emails')
          .select('error')
          .where('id', '=', id)
          .executeTakeFirst();
        await ctx.db
          .insertInto('inbound_historic_errors')
          .values({ historic_id: historicId, row: seq ?? 0, message: row?.error ?? 'rejected' })
          .execute();
      }
    }
    await extendLease(ctx, jobId, LEASE_MS);
  }
  await ctx.db
    .updateTable('inbound_historic')
    .set({ status: 'done', finished_at: now(), updated_at: now() })
    .where('id', '=', historicId)
    .execute();
}

export const inboundHistoricJob: BackgroundJobFactory = (ctx) =>
  queueWorker(ctx, {
    name: 'historic email parsing',
    kind: HISTORIC_JOB,
    retrySchedule: [5, 30, 120, 600],
    leaseMs: LEASE_MS,
    batch: 1,
    async handle(job) {
      const { historicId } = JSON.parse(job.payload) as { historicId: number };
      await runHistoric(ctx, job.id, historicId);
    },
  });
