import { type Dialect, Kysely } from 'kysely';
import type pg from 'pg';
import type { DB, DbOrTrx } from './database.js';
import type { RememberedReads } from './remembered-reads.js';

/**
 * SQLite only: a second, read-only connection for the hottest reads (the API-key lookup of every
 * request, a person by id, list totals). It answers synchronously, without queueing behind
 * Kysely's one writer connection and whatever transaction holds it, and in WAL mode sees exactly
 * what is committed. Absent on PostgreSQL, whose pool already reads concurrently.
 */
export interface SyncReader {
  /** the first row of a query, or undefined */
  get(sql: string, parameters: readonly unknown[]): unknown;
  /** every row of a query (one known to read few: remembered-reads.ts readAtOnce) */
  all(sql: string, parameters: readonly unknown[]): unknown[];
  /** list totals and pages read at the current content version (remembered-reads.ts) */
  remembered(): RememberedReads;
  /** moves with every commit to a bookkeeping table (audit rows, jobs, the outbox) */
  bookkeepingVersion(): number;
}

/** Queues list reads for the few connections they may hold at once (list-lanes.ts). */
export interface ListLaneRunner {
  run<T>(deadline: number, read: () => Promise<T>): Promise<T>;
}

/** What a database is made of besides its Kysely dialect; each part is absent where it has no use. */
export interface DatabaseParts {
  /** SQLite, on a file: the read connection */
  reader?: SyncReader | null;
  /** PostgreSQL: the pool (its usage metrics) */
  pool?: pg.Pool | null;
  /** PostgreSQL: the connections list reads may hold at once */
  listLanes?: ListLaneRunner | null;
  /** SQLite, on a file: opens the read threads that run heavy reads off the event loop */
  openReadThreads?: (() => HearthDb) | null;
  /** true for the handle whose queries run on the read threads */
  onReadThreads?: boolean;
  /** false: reusable queries compile every call (HEARTH_DB_SHORTCUTS=off) */
  compilesOnce?: boolean;
  /** closes what the parts opened, after Kysely's own connections */
  close?: () => Promise<void>;
}

const PLAIN_QUERIES = Symbol('hearth: compile every query');

/**
 * The database of a process: one object holding every connection it uses, made by openDatabase
 * (connect.ts) and closed by destroy(). Kysely skips its driver's destroy() when no query has run;
 * the parts (reader, checkpointer, read threads) close all the same, or they would go on writing
 * the database's files after destroy() has returned.
 */
export class HearthDb extends Kysely<DB> {
  readonly reader: SyncReader | null;
  readonly pool: pg.Pool | null;
  readonly listLanes: ListLaneRunner | null;
  readonly onReadThreads: boolean;
  readonly #openReadThreads: (() => HearthDb) | null;
  readonly #close: (() => Promise<void>) | null;
  #readThreads: HearthDb | null = null;

  constructor(dialect: Dialect, parts: DatabaseParts = {}) {
    super({ dialect });
    this.reader = parts.reader ?? null;
    this.pool = parts.pool ?? null;
    this.listLanes = parts.listLanes ?? null;
    this.onReadThreads = parts.onReadThreads ?? false;
    this.#openReadThreads = parts.openReadThreads ?? null;
    this.#close = parts.close ?? null;
    // On the adapter, which this database's transactions share.
    if (parts.compilesOnce === false)
      Object.defineProperty(this.getExecutor().adapter, PLAIN_QUERIES, { value: true });
  }

  /** Where heavy reads run: the read threads (opened on first use) where there are any, else here. */
  heavyReads(): HearthDb {
    if (!this.#openReadThreads) return this;
    return (this.#readThreads ??= this.#openReadThreads());
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    await this.#close?.();
  }
}

/** False for a database opened with `compiledQueries: false`, and for its transactions. */
export function compilesOnce(db: DbOrTrx): boolean {
  return !(PLAIN_QUERIES in db.getExecutor().adapter);
}

/** The read connection of a SQLite database; none inside a transaction, which must read its own writes. */
export function syncReaderOf(db: DbOrTrx): SyncReader | undefined {
  return db instanceof HearthDb ? (db.reader ?? undefined) : undefined;
}

/**
 * Where a read that may be heavy (a list page, its total) should run: on SQLite, outside a
 * transaction, a handle whose queries run on worker threads, keeping the event loop free; else
 * the handle itself.
 */
export function heavyReadDbOf(db: DbOrTrx): DbOrTrx {
  return db instanceof HearthDb ? db.heavyReads() : db;
}

/** True for a handle from heavyReadDbOf whose queries run on read threads. */
export function runsOnReadThreads(db: DbOrTrx): boolean {
  return db instanceof HearthDb && db.onReadThreads;
}

/** The PostgreSQL pool behind a database handle (for its usage metrics); none on SQLite. */
export function poolOf(db: DbOrTrx): pg.Pool | undefined {
  return db instanceof HearthDb ? (db.pool ?? undefined) : undefined;
}
