import { sql } from 'kysely';
import { CombinedWrites } from '../../platform/db/combined-writes.js';
import type { Trx } from '../../platform/db/database.js';
import { ApiError } from '../../platform/http/errors.js';
import { type PersonState, changedFields, mergePersonStates } from '../people/people.state.js';
import { insertRowsLater, loadPeople } from '../people/people.bulk.js';
import { defaultOwnership, mayAssignAgent } from '../../access/ownership.js';
import { isoSeconds } from '../../platform/time.js';
import { EventBatch } from '../../accounts/webhooks/outbox.js';
import { type ImportedRow, RowError, rowToPerson } from './rows.js';
import { StagedPeople } from './staged.js';
import type { ImportRun } from './run.js';
import { batchIndex, identityKeys, type MatchIndex, matchOf } from './batch-matches.js';

export type Outcome = 'created' | 'updated' | 'skipped';

export interface NumberedRecord {
  row: number;
  record: string[];
}

/** Another worker took the import over, or undo was asked for: this batch must not commit. */
export class ImportMoved extends Error {}

/** What a dry run reports for a row: the same decisions, nothing written. */
function dryRunRow(
  run: ImportRun,
  state: PersonState,
  index: MatchIndex,
  stored: Map<number, PersonState>,
): Outcome {
  const keys = identityKeys(state);
  const known = keys.some((k) => run.seen!.has(k));
  for (const key of keys) run.seen!.add(key);
  const match = matchOf(state, index);
  if (!match) return known ? 'updated' : 'created';
  if (run.import.on_duplicate === 'skip') return 'skipped';
  const before = stored.get(match.personId)!;
  return changedFields(before, mergePersonStates(before, state)).length ? 'updated' : 'skipped';
}

/** Applies one row to the batch's people: a new person, or the known one filled in (never wiped), or skipped. */
function importRow(
  run: ImportRun,
  person: ImportedRow,
  index: MatchIndex,
  staged: StagedPeople,
): Outcome {
  const { state } = person;
  const at = isoSeconds(run.ctx.clock.now());
  const match = matchOf(state, index);
  if (match) {
    if (run.import.on_duplicate === 'skip') return 'skipped';
    const after = mergePersonStates(staged.state(match.personId), state);
    const changed = staged.update(match.personId, after, at);
    index.learn(match.personId, after);
    return changed ? 'updated' : 'skipped';
  }
  const owned = defaultOwnership(run.auth, state);
  const id = staged.create(
    { ...owned, stageId: owned.stageId ?? run.plan.defaultStageId },
    person.createdAt ?? at,
  );
  index.learn(id, state);
  return 'created';
}

const rowMessage = (err: unknown) =>
  err instanceof RowError || err instanceof ApiError ? err.message : null;

export type Prepared = { row: number; person: ImportedRow | null } | { row: number; error: string };

/**
 * Each record as a person, before any transaction: the checks need no database, so the job
 * prepares the next batch while the database stores this one (imports.job.ts).
 */
export async function prepareRows(run: ImportRun, rows: NumberedRecord[]): Promise<Prepared[]> {
  const out: Prepared[] = [];
  for (const { row, record } of rows) {
    try {
      const person = await rowToPerson(run.ctx.db, run.import.account_id, run.plan, record);
      if (person?.agentUnknown) person.state.assignedUserId = run.auth.userId;
      if (!mayAssignAgent(run.auth, person?.state.assignedUserId ?? null))
        throw new RowError(
          'An Agent imports people assigned to themselves only: clear the Assigned To column',
        );
      out.push({ row, person });
    } catch (err) {
      const message = rowMessage(err);
      if (message === null) throw err;
      out.push({ row, error: message });
    }
  }
  return out;
}

/**
 * Imports rows in one transaction together with the import's progress, so a crash either keeps
 * the batch and its counts or neither: a resumed import starts after the last committed batch and
 * never writes a row twice. The progress update only applies if `processed` is still what this
 * worker read, so two workers can never both commit the same rows. On PostgreSQL, where each
 * statement is a round trip, a batch costs five: its emails and phones matched in one query, the
 * matched people read and locked in one, its new people inserted, and every other write (updates,
 * lookup rows, webhook events, progress) sent as one statement (CombinedWrites).
 */
export async function commitBatch(
  run: ImportRun,
  rows: NumberedRecord[],
  prepared?: Prepared[],
): Promise<void> {
  const { ctx } = run;
  const imp = run.import;
  prepared ??= await prepareRows(run, rows);
  const people = prepared.flatMap((p) => ('person' in p && p.person ? [p.person.state] : []));
  await ctx.db.transaction().execute(async (trx) => {
    const counts = { created: 0, updated: 0, skipped: 0 };
    const errors: { import_id: number; row: number; message: string }[] = [];
    const warnings: typeof errors = [];
    const { index, stored } = await batchIndex(trx, run, people);
    const staged = new StagedPeople(stored, run.plan.stageNames);
    for (const item of prepared) {
      try {
        if ('error' in item) throw new RowError(item.error);
        if (!item.person) counts.skipped++;
        else {
          const { state } = item.person;
          await readUnstaged(trx, run, staged, stored, index.match(state)?.personId, index);
          counts[
            run.seen
              ? dryRunRow(run, state, index, stored)
              : importRow(run, item.person, index, staged)
          ]++;
          for (const message of item.person.warnings)
            warnings.push({ import_id: imp.id, row: item.row, message });
        }
      } catch (err) {
        const message = rowMessage(err);
        if (message === null) throw err;
        errors.push({ import_id: imp.id, row: item.row, message: message.slice(0, 1000) });
      }
    }
    const events = new EventBatch();
    const writes = new CombinedWrites();
    const real = await staged.write(trx, ctx.dialect, imp.account_id, events, writes);
    const created = [...real.values()].map((person_id) => ({ import_id: imp.id, person_id }));
    insertRowsLater(writes, ctx.dialect, 'outbox', events.take());
    insertRowsLater(writes, ctx.dialect, 'import_people', created);
    insertRowsLater(writes, ctx.dialect, 'import_errors', errors);
    insertRowsLater(writes, ctx.dialect, 'import_warnings', warnings);
    writes.count(sql`update imports set
        processed = processed + ${rows.length}, created = created + ${counts.created},
        updated = updated + ${counts.updated}, skipped = skipped + ${counts.skipped},
        error_count = error_count + ${errors.length}, updated_at = ${isoSeconds(ctx.clock.now())}
      where id = ${imp.id} and processed = ${imp.processed} and status = 'running'
        and undo_status is null
      returning 1`);
    // The batch's writes after the insert of its new people, in one round trip on PostgreSQL.
    const moved = await writes.run(trx, ctx.dialect);
    if (moved !== 1) throw new ImportMoved();
  });
  imp.processed += rows.length;
}

/** A visible match the batch has not read (see batchIndex: not expected), read now. */
async function readUnstaged(
  trx: Trx,
  run: ImportRun,
  staged: StagedPeople,
  stored: Map<number, PersonState>,
  personId: number | undefined,
  index: MatchIndex,
) {
  if (personId === undefined || staged.has(personId) || !index.visible.has(personId)) return;
  if (run.import.on_duplicate === 'skip') return;
  const more = await loadPeople(trx, run.ctx.dialect, run.import.account_id, [personId], {
    lock: !run.seen,
  });
  for (const [id, state] of more) {
    stored.set(id, state);
    staged.add(id, state);
  }
}

/**
 * A batch whose transaction failed on something other than a row's content (a database error)
 * is retried one row per transaction, so one bad row costs only itself.
 */
export async function commitRows(
  run: ImportRun,
  rows: NumberedRecord[],
  prepared?: Prepared[],
): Promise<void> {
  try {
    await commitBatch(run, rows, prepared);
    return;
  } catch (err) {
    if (err instanceof ImportMoved || rows.length === 1) throw err;
    run.ctx.log.warn({ importId: run.import.id, err }, 'import batch failed; retrying row by row');
  }
  for (const row of rows) {
    try {
      await commitBatch(run, [row]);
    } catch (err) {
      if (err instanceof ImportMoved) throw err;
      run.ctx.log.error({ importId: run.import.id, row: row.row, err }, 'import row failed');
      await recordFailedRow(run, row.row);
    }
  }
}

async function recordFailedRow(run: ImportRun, row: number): Promise<void> {
  const imp = run.import;
  await run.ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('import_errors')
      .values({
        import_id: imp.id,
        row,
        message: 'The row could not be saved (see the server log)',
      })
      .execute();
    const moved = await trx
      .updateTable('imports')
      .set((eb) => ({ processed: eb('processed', '+', 1), error_count: eb('error_count', '+', 1) }))
      .where('id', '=', imp.id)
      .where('processed', '=', imp.processed)
      .where('status', '=', 'running')
      .where('undo_status', 'is', null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new ImportMoved();
  });
  imp.processed += 1;
}
