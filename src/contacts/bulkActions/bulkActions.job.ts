import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { extendLease } from '../../platform/jobs/queue.js';
import { queueWorker } from '../../platform/jobs/queue-worker.js';
import type { BackgroundJobFactory } from '../../platform/jobs/types.js';
import { isoSeconds } from '../../platform/time.js';
import { EventBatch } from '../../accounts/webhooks/outbox.js';
import { notifyAgent } from '../../accounts/notifications/notifications.service.js';
import { applyToPeople } from './bulkActions.apply.js';
import { actingUser, type BulkActionRow, findBulkAction, nextPeople } from './bulkActions.repo.js';

export const BULK_ACTION_JOB = 'peopleBulkAction';
const RETRIES = [5, 30, 120, 600];
/** A worker that dies loses its claim after this long and another resumes the action. */
const LEASE_MS = 20_000;
/**
 * People per transaction: each chunk commits with the action's progress, so a crash loses at most
 * one uncommitted chunk, which the next worker does again. Small enough not to hold SQLite's one
 * write lock long.
 */
const CHUNK = { sqlite: 100, postgres: 250 } as const;
/** How many refused people the action keeps the reason of. */
const MAX_ERRORS = 100;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function finish(ctx: AppContext, row: BulkActionRow, message: string | null) {
  const at = isoSeconds(ctx.clock.now());
  await ctx.db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('bulk_actions')
      .set({ status: message ? 'failed' : 'done', message, finished_at: at, updated_at: at })
      .where('id', '=', row.id)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    if (Number(ended.numUpdatedRows) === 0 || message || row.action !== 'assign') return;
    await notifyNewAgent(ctx, trx, row);
  });
}

/** One notification for a bulk hand-over (not one per person), in the transaction that ends it. */
async function notifyNewAgent(ctx: AppContext, trx: Trx, row: BulkActionRow) {
  const agentId = Number(row.value);
  const current = await trx
    .selectFrom('bulk_actions')
    .select('changed')
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  if (agentId === row.user_id || current.changed === 0) return;
  const first = await trx
    .selectFrom('bulk_action_people as b')
    .innerJoin('people', 'people.id', 'b.person_id')
    .select(['people.id', 'people.name'])
    .where('b.bulk_action_id', '=', row.id)
    .where('people.assigned_user_id', '=', agentId)
    .orderBy('people.id')
    .limit(1)
    .executeTakeFirst();
  const actor = await trx
    .selectFrom('users')
    .select('name')
    .where('id', '=', row.user_id)
    .executeTakeFirst();
  if (!first) return;
  const others = current.changed - 1;
  await notifyAgent(trx, ctx, {
    accountId: row.account_id,
    userId: agentId,
    personId: first.id,
    eventId: null,
    kind: 'handOver',
    personName: first.name,
    eventType: '',
    source: '',
    message:
      others > 0
        ? `${first.name || 'A person'} and ${others} other${others === 1 ? '' : 's'} assigned to you by ${actor?.name ?? 'a user'}.`
        : `Assigned to you by ${actor?.name ?? 'a user'}.`,
  });
}

/** Works through the action's people from where it stopped, a chunk per transaction. */
async function run(ctx: AppContext, jobId: number, id: number): Promise<void> {
  const row = await findBulkAction(ctx.db, id);
  if (!row || row.status === 'done' || row.status === 'failed') return;
  const auth = await actingUser(ctx.db, row);
  if (!auth) return finish(ctx, row, 'The user who asked for this action no longer exists');
  let after = row.after_person_id;
  let leaseExtendedAt = ctx.clock.now();
  for (;;) {
    const ids = await nextPeople(ctx.db, id, after, CHUNK[ctx.dialect]);
    if (ids.length === 0) break;
    const taken = await ctx.db
      .transaction()
      .execute(async (trx) => {
        const batch = new EventBatch();
        const outcome = await applyToPeople(trx, { ctx, row, auth, emit: batch.emit }, ids);
        await batch.flush(trx, 100, ctx.clock.now());
        const stored = await trx
          .selectFrom('bulk_actions')
          .select('errors')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const errors = [...(JSON.parse(stored.errors) as unknown[]), ...outcome.errors];
        const updated = await trx
          .updateTable('bulk_actions')
          .set((eb) => ({
            status: 'running',
            processed: eb('processed', '+', ids.length),
            changed: eb('changed', '+', outcome.changed),
            skipped: eb('skipped', '+', outcome.skipped),
            errors: JSON.stringify(errors.slice(0, MAX_ERRORS)),
            after_person_id: ids[ids.length - 1],
            updated_at: isoSeconds(ctx.clock.now()),
          }))
          .where('id', '=', id)
          // Another worker that took over a lapsed lease has done this chunk: roll back, leave it.
          .where('after_person_id', '=', after)
          .executeTakeFirstOrThrow();
        if (Number(updated.numUpdatedRows) !== 1) throw new ChunkTakenOver();
        return false;
      })
      .catch((err: unknown) => {
        if (err instanceof ChunkTakenOver) return true;
        throw err;
      });
    if (taken) return;
    after = ids[ids.length - 1];
    if (ctx.clock.now() - leaseExtendedAt > LEASE_MS / 4) {
      leaseExtendedAt = ctx.clock.now();
      await extendLease(ctx, jobId, LEASE_MS);
    }
    await nextTurn();
  }
  await finish(ctx, row, null);
}

class ChunkTakenOver extends Error {}

export const bulkActionJob: BackgroundJobFactory = (ctx) =>
  queueWorker(ctx, {
    name: 'people bulk actions',
    kind: BULK_ACTION_JOB,
    retrySchedule: RETRIES,
    leaseMs: LEASE_MS,
    batch: 2,
    async handle(job) {
      const { bulkActionId } = JSON.parse(job.payload) as { bulkActionId: number };
      try {
        await run(ctx, job.id, bulkActionId);
      } catch (err) {
        // Retried by the queue; once it gives up, the action must not stay "running" for ever.
        const row = job.attempts > RETRIES.length && (await findBulkAction(ctx.db, bulkActionId));
        if (row)
          await finish(
            ctx,
            row,
            `Stopped after ${row.processed} of ${row.total} people on an internal error (see the server log); the people done so far keep their change`,
          );
        throw err;
      }
    },
  });
