import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import type { AppContext } from '../../platform/context.js';
import { ApiError } from '../../platform/http/errors.js';
import { extendLease } from '../../platform/jobs/queue.js';
import { queueWorker } from '../../platform/jobs/queue-worker.js';
import type { BackgroundJobFactory } from '../../platform/jobs/types.js';
import { isoSeconds } from '../../platform/time.js';
import { commitRows, ImportMoved, type NumberedRecord, prepareRows } from './batch.js';
import type { ImportRun } from './run.js';
import { csvOptions, type Encoding } from './decode.js';
import {
  findImport,
  importer,
  type ImportRow,
  PIECE_BYTES,
  readPiece,
  updateImport,
} from './imports.repo.js';
import { ImportHeap } from './heap.js';
import { loadPlan } from './plan.js';
import type { ValueMap } from './values.js';
import { rowToPerson } from './rows.js';
import { IMPORT_JOB } from './upload.js';
import { UNDO_JOB, undoImport } from './undo.js';

/**
 * Rows per transaction: big enough to amortise the commit and the batch's dozen statements (on
 * PostgreSQL each a round trip), small enough not to hold SQLite's one write lock long (~0.1 s);
 * on PostgreSQL a batch locks only the people it updates.
 */
const BATCH_ROWS = { sqlite: 250, postgres: 500 } as const;
const RETRIES = [5, 30, 120, 600];
/** A worker that dies loses its claim after this long and another resumes the import. */
export const IMPORT_LEASE_MS = 20_000;

/**
 * Lets the event loop turn between batches. On SQLite every query answers at once, so without it
 * a whole import runs as one chain of promise callbacks: the worker's other jobs and timers waited
 * for it to end (a 100,000-row import held them for a minute).
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The stored upload, decoded, as CSV records (the header first), a piece at a time in memory. */
function records(ctx: AppContext, imp: ImportRow): AsyncIterable<string[]> {
  const text = Readable.from(
    (async function* () {
      const decoder = new TextDecoder(imp.encoding as Encoding);
      read: for (let seq = 0; ; seq++)
        for (let offset = 0; ;) {
          const piece = await readPiece(ctx.db, imp.id, seq, offset);
          if (!piece) break read;
          if (piece.length) yield decoder.decode(piece, { stream: true });
          if (piece.length < PIECE_BYTES) break;
          offset += piece.length;
        }
      yield decoder.decode();
    })(),
  );
  const parser = parse(csvOptions(imp.delimiter));
  pipeline(text, parser).catch(() => {}); // an error reaches the consumer through the parser
  return parser;
}

async function countRows(ctx: AppContext, imp: ImportRow, heap: ImportHeap): Promise<number> {
  let count = -1; // the header
  for await (const _ of records(ctx, imp)) if (++count % COUNT_CHECK_ROWS === 0) heap.check();
  return Math.max(count, 0);
}

/** Rows counted between two looks at the heap (ImportHeap) while counting, as in a batch. */
const COUNT_CHECK_ROWS = 500;

/** Why a whole import stopped, in words for its owner (a CSV syntax error names its line). */
function fatalMessage(err: unknown): string | null {
  if (err instanceof ApiError) return err.message;
  if (err instanceof CsvError) {
    const line = (err as CsvError & { lines?: number }).lines;
    const what =
      err.code === 'CSV_MAX_RECORD_SIZE'
        ? 'a field longer than 1 MiB (is a quote left open?)'
        : err.message;
    return `The file cannot be read past line ${line ?? '?'}: ${what}`;
  }
  return null;
}

async function run(ctx: AppContext, jobId: number, importId: number): Promise<void> {
  const imp = await findImport(ctx.db, importId);
  if (!imp || imp.undo_status || imp.status === 'done' || imp.status === 'failed') return;
  const auth = await importer(ctx.db, imp);
  if (!auth) return;
  if (imp.status === 'queued') {
    await updateImport(ctx.db, imp.id, {
      status: 'running',
      updated_at: isoSeconds(ctx.clock.now()),
    });
    imp.status = 'running';
  }
  let committing: Promise<unknown> = Promise.resolve(null);
  try {
    const iterator = records(ctx, imp)[Symbol.asyncIterator]();
    const header = (await iterator.next()).value as string[];
    const plan = await loadPlan(
      ctx.db,
      imp.account_id,
      header,
      JSON.parse(imp.mapping),
      imp.date_format,
      JSON.parse(imp.value_map) as ValueMap,
    );
    const heap = new ImportHeap();
    if (imp.total === null) {
      imp.total = await countRows(ctx, imp, heap);
      await updateImport(ctx.db, imp.id, { total: imp.total });
    }
    const runState: ImportRun = {
      ctx,
      import: imp,
      auth,
      plan,
      seen: imp.dry_run ? new Set() : null,
    };
    // One batch is stored while the next is read and prepared (parsing and checking rows needs no
    // database): on PostgreSQL the worker's CPU work and the database's overlap instead of taking
    // turns. Batches still commit one after the other, in file order. `committing` settles with
    // the stored batch's error (or null), so a failure waits, handled, until the next batch.
    let leaseExtendedAt = ctx.clock.now();
    const extend = async () => {
      // A quarter of the lease: a round trip per batch bought nothing but load on PostgreSQL.
      if (ctx.clock.now() - leaseExtendedAt < IMPORT_LEASE_MS / 4) return;
      leaseExtendedAt = ctx.clock.now();
      await extendLease(ctx, jobId, IMPORT_LEASE_MS);
    };
    const commit = async (rows: NumberedRecord[]) => {
      const prepared = await prepareRows(runState, rows);
      const failed = await committing;
      if (failed) throw failed;
      committing = commitRows(runState, rows, prepared)
        .then(extend)
        .then(
          () => null,
          (err: unknown) => err ?? new Error('import batch failed'),
        );
    };
    let row = 1; // the header is row 1, as in a spreadsheet
    let batch: NumberedRecord[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      row++;
      if (row - 1 <= imp.processed) {
        if (runState.seen) await rememberRow(runState, next.value);
        continue;
      }
      batch.push({ row, record: next.value });
      if (batch.length === BATCH_ROWS[ctx.dialect]) {
        await commit(batch);
        batch = [];
        heap.check();
        await nextTurn();
      }
    }
    if (batch.length) await commit(batch);
    const failed = await committing;
    if (failed) throw failed;
    await finish(ctx, imp, 'done', null);
  } catch (err) {
    await committing; // a batch still being stored ends (or rolls back) first
    if (err instanceof ImportMoved) return;
    const message = fatalMessage(err);
    if (message === null) throw err;
    await finish(ctx, imp, 'failed', message);
  }
}

/** A resumed dry run relearns the emails and phones of the rows it had read. */
async function rememberRow(run: ImportRun, record: string[]): Promise<void> {
  const person = await rowToPerson(run.ctx.db, run.import.account_id, run.plan, record).catch(
    () => null,
  );
  for (const e of person?.state.emails ?? []) run.seen!.add(`e:${e.value.toLowerCase()}`);
  for (const p of person?.state.phones ?? []) run.seen!.add(`p:${p.normalized}`);
}

async function finish(
  ctx: AppContext,
  imp: ImportRow,
  status: 'done' | 'failed',
  message: string | null,
) {
  const at = isoSeconds(ctx.clock.now());
  await ctx.db
    .updateTable('imports')
    .set({ status, message, finished_at: at, updated_at: at })
    .where('id', '=', imp.id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
  // The file is not needed once read to the end; its report and counts stay.
  await ctx.db.deleteFrom('import_chunks').where('import_id', '=', imp.id).execute();
}

const failImport = (ctx: AppContext, importId: number, message: string) =>
  finish(ctx, { id: importId } as ImportRow, 'failed', message);

export const importJob: BackgroundJobFactory = (ctx) =>
  queueWorker(ctx, {
    name: 'imports',
    kind: IMPORT_JOB,
    retrySchedule: RETRIES,
    leaseMs: IMPORT_LEASE_MS,
    batch: 2,
    async handle(job) {
      const { importId } = JSON.parse(job.payload) as { importId: number };
      try {
        await run(ctx, job.id, importId);
      } catch (err) {
        // The queue retries; once it gives up, the import must not stay "running" for ever.
        if (job.attempts > RETRIES.length)
          await failImport(
            ctx,
            importId,
            'The import stopped on an internal error (see the server log)',
          );
        throw err;
      }
    },
  });

export const importUndoJob: BackgroundJobFactory = (ctx) =>
  queueWorker(ctx, {
    name: 'import undo',
    kind: UNDO_JOB,
    retrySchedule: RETRIES,
    leaseMs: IMPORT_LEASE_MS,
    async handle(job) {
      const { importId } = JSON.parse(job.payload) as { importId: number };
      await undoImport(ctx, job.id, importId);
    },
  });
