import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import { enqueueJob, extendLease } from '../../platform/jobs/queue.js';
import { removePerson } from '../people/people.service.js';
import { isoSeconds } from '../../platform/time.js';
import { EventBatch } from '../../accounts/webhooks/outbox.js';
import {
  createdPeople,
  findImport,
  findVisibleImport,
  importer,
  updateImport,
} from './imports.repo.js';

export const UNDO_JOB = 'import.undo';
const UNDO_BATCH = 200;

/** Queues the undo of an import the caller sees; a dry run or an import undone already is a 409. */
export async function queueUndo(ctx: AppContext, auth: AuthUser, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findVisibleImport(trx, auth, id);
    if (!row) throw notFound(`Import ${id}`);
    if (row.dry_run) throw conflict('A dry run changed nothing: there is nothing to undo');
    if (row.undo_status) throw conflict(`Import ${id} is already undone (or being undone)`);
    await updateImport(trx, id, { undo_status: 'queued' });
    await enqueueJob(ctx, trx, {
      accountId: row.account_id,
      kind: UNDO_JOB,
      payload: { importId: id },
    });
  });
}

/**
 * Removes the people an import created, a batch per transaction (with their peopleDeleted events,
 * batched), and nothing else: people it updated keep what they are now. A person deleted
 * meanwhile has already left `import_people`, so a resumed undo picks up where it stopped.
 */
export async function undoImport(ctx: AppContext, jobId: number, importId: number): Promise<void> {
  const imp = await findImport(ctx.db, importId);
  if (!imp || imp.undo_status === 'done') return;
  const auth = await importer(ctx.db, imp);
  if (!auth) return;
  await ctx.db
    .updateTable('imports')
    .set({ undo_status: 'running' })
    .where('id', '=', imp.id)
    .execute();
  for (;;) {
    const ids = await createdPeople(ctx.db, imp.id, UNDO_BATCH);
    const events = new EventBatch();
    await ctx.db.transaction().execute(async (trx) => {
      // What the import created goes, whatever the importer's role has become since.
      for (const id of ids) await removePerson(trx, { ...auth, role: 'Admin' }, id, events.emit);
      await events.flush(trx);
      const at = isoSeconds(ctx.clock.now());
      await trx
        .updateTable('imports')
        .set((eb) => ({
          removed: eb('removed', '+', ids.length),
          updated_at: at,
          ...(ids.length < UNDO_BATCH ? { undo_status: 'done' as const } : {}),
        }))
        .where('id', '=', imp.id)
        .execute();
    });
    if (ids.length < UNDO_BATCH) return;
    await extendLease(ctx, jobId, 20_000);
  }
}
