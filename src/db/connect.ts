import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type Dialect, Kysely, PostgresDialect } from 'kysely';
import { GroupCommitSqliteDialect } from './sqlite/group-commit.js';
import { startCheckpointer, WRITER_AUTOCHECKPOINT_PAGES } from './sqlite/checkpointer.js';
import type { DB, DbOrTrx } from './database.js';
import type { DbShortcuts } from '../config.js';
import { dialectOf, type DialectName } from './dialect.js';
import { withStatementCache } from './sqlite/statement-cache.js';
import { dropStat4Samples } from './sqlite/replanning.js';
import { registerQueryBudget } from './sqlite/budget-function.js';
import { ensurePrivateDatabaseFiles } from '../private-files.js';
import { withIdempotencyClaims } from '../idempotency/claim.js';
import { ReadThreads, readThreadsDb } from './sqlite/read-threads.js';
import { listConcurrency } from './list-concurrency.js';

// COUNT(*) and other int8 results come back as strings by default; our counts fit in a double.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export interface OpenedDatabase {
  db: Kysely<DB>;
  dialect: DialectName;
}

/**
 * SQLite only: a second, read-only connection for the hottest reads (the API-key lookup of every
 * request, a person by id, list totals). It answers synchronously, without queueing behind
 * Kysely's one writer connection and whatever transaction holds it, and in WAL mode sees exactly
 * what is committed. Absent on PostgreSQL, whose pool already reads concurrently.
 */
export interface SyncReader {
  /** the first row of a query, or undefined */
  get(sql: string, parameters: readonly unknown[]): unknown;
  /** changes whenever any connection (this process's writer included) commits a change */
  dataVersion(): number;
}
const readers = new WeakMap<Kysely<DB>, SyncReader>();
const pools = new WeakMap<Kysely<DB>, pg.Pool>();
/** SQLite: the handle on read threads (read-threads.ts) of each database, made on first use. */
const heavyReaders = new WeakMap<Kysely<DB>, () => Kysely<DB>>();
const onReadThreads = new WeakSet<Kysely<DB>>();
/** The adapters of databases opened with `compiledQueries: false` (a transaction shares its database's). */
const plainAdapters = new WeakSet<object>();

/** False for a database opened with `compiledQueries: false`: reusable-query.ts then compiles every call. */
export function compilesOnce(db: DbOrTrx): boolean {
  return !plainAdapters.has(db.getExecutor().adapter);
}

/**
 * Where a read that may be heavy (a list page, its total) should run: on SQLite, outside a
 * transaction, a handle whose queries run on worker threads, keeping the event loop free; else
 * the handle itself.
 */
export function heavyReadDbOf(db: DbOrTrx): DbOrTrx {
  if (db.isTransaction) return db;
  return heavyReaders.get(db as Kysely<DB>)?.() ?? db;
}

/** True for a handle from heavyReadDbOf whose queries run on read threads. */
export function runsOnReadThreads(db: DbOrTrx): boolean {
  return onReadThreads.has(db as Kysely<DB>);
}

/** The PostgreSQL pool behind a database handle (for its usage metrics); none on SQLite. */
export function poolOf(db: Kysely<DB>): pg.Pool | undefined {
  return pools.get(db);
}

const listLaneSizes = new WeakMap<pg.Pool, number>();

/** How many list reads may hold a connection of `pool` at once (list-lanes.ts). */
export function listLaneSize(pool: pg.Pool): number {
  return listLaneSizes.get(pool) ?? Math.max(1, Math.floor(pool.options.max / 2));
}

/** The read connection of a SQLite database; none inside a transaction, which must read its own writes. */
export function syncReaderOf(db: DbOrTrx): SyncReader | undefined {
  return db.isTransaction ? undefined : readers.get(db as Kysely<DB>);
}

function openReader(file: string): SyncReader & { close(): Promise<void> } {
  const connection = new Database(file, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  connection.pragma('temp_store = MEMORY');
  registerQueryBudget(connection);
  // List totals vary with the filters combined, so the shapes are many: keep the recent ones.
  const statements = withStatementCache(connection, () => {}, 500);
  const version = connection.prepare('pragma data_version').pluck();
  return {
    get: (sql, parameters) => statements.prepare(sql).get(parameters),
    dataVersion: () => version.get() as number,
    close: () => statements.close(),
  };
}

export function openDatabase(
  databaseUrl: string,
  options: {
    poolSize?: number;
    /** HEARTH_LIST_CONCURRENCY (null: by CPU count and the database's host) */
    listConcurrency?: number | null;
    onBackgroundError?: (message: string) => void;
  } & Partial<DbShortcuts> = {},
): OpenedDatabase {
  const opened = openByDialect(databaseUrl, options);
  if (options.compiledQueries === false) plainAdapters.add(opened.db.getExecutor().adapter);
  return opened;
}

function openByDialect(
  databaseUrl: string,
  options: Parameters<typeof openDatabase>[1] & object,
): OpenedDatabase {
  const dialect = dialectOf(databaseUrl);
  const poolSize = options.poolSize ?? 10;
  const lists = listConcurrency(databaseUrl, options.listConcurrency ?? null, poolSize);
  if (dialect === 'sqlite') {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      ensurePrivateDatabaseFiles(file);
    }
    const sqlite = new Database(file === ':memory:' ? ':memory:' : file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Each grouped transaction runs in a savepoint, whose journal spills to a temporary file past
    // 64 KiB (this build's default); a lead event's savepoint passes that. In memory its SQL took
    // 138 µs instead of 195 µs. Sorts without an index use memory too.
    sqlite.pragma('temp_store = MEMORY');
    registerQueryBudget(sqlite);
    // Keep the query planner's statistics fresh (SQLite's advice: at open, then periodically);
    // without them a filter such as email= can scan a whole account instead of using its index.
    sqlite.pragma('optimize = 0x10002');
    dropStat4Samples(sqlite);
    const optimizer = setInterval(() => {
      try {
        sqlite.pragma('optimize');
        dropStat4Samples(sqlite);
      } catch {
        /* busy: the next round will do it */
      }
    }, 60 * 60_000);
    optimizer.unref();
    // An in-memory database is private to its connection: there is nothing a second one could read.
    const reader = file === ':memory:' ? null : openReader(file);
    const checkpointer =
      file === ':memory:' ? null : startCheckpointer(file, options.onBackgroundError);
    if (checkpointer) sqlite.pragma(`wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT_PAGES}`);
    // The checkpoint thread closes its connection last: closing returns only once the files are settled.
    let threads: ReadThreads | null = null;
    const onClose = async () => {
      clearInterval(optimizer);
      await threads?.close();
      await reader?.close();
      await checkpointer?.stop();
    };
    const statements = withStatementCache(sqlite, onClose);
    const db = new ClosingKysely(
      withIdempotencyClaims(
        new GroupCommitSqliteDialect(sqlite, statements, {
          grouped: options.groupCommit !== false,
        }),
        dialect,
      ),
      () => statements.close(),
    );
    if (reader) {
      readers.set(db, reader);
      let heavy: Kysely<DB> | null = null;
      heavyReaders.set(db, () => {
        if (heavy) return heavy;
        threads = new ReadThreads(file, lists);
        heavy = readThreadsDb(threads);
        onReadThreads.add(heavy);
        // Its single-row lookups and the data version still come from the main read connection.
        readers.set(heavy, reader);
        return heavy;
      });
    }
    return { db, dialect };
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // One connection at least stays free of lists for everything else.
  listLaneSizes.set(pool, Math.max(1, Math.min(lists, poolSize - 1)));
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // No JIT compilation: Hearth's queries are short, and a list whose estimated cost passed
  // jit_above_cost spent 11–21 ms compiling to run in 40 (PostgreSQL's advice for OLTP work).
  // The setting is queued on the new connection before any query it is handed for.
  pool.on('connect', (client) => {
    client.query('set jit = off').catch(() => {});
  });
  const db = new Kysely<DB>({
    dialect: withIdempotencyClaims(new PostgresDialect({ pool }), dialect),
  });
  pools.set(db, pool);
  return { db, dialect };
}

/**
 * Kysely skips its driver's destroy() when no query has run yet; the connections and threads a
 * SQLite database opens here (reader, checkpointer) must close all the same, or they go on
 * writing the database's files after destroy() has returned.
 */
class ClosingKysely extends Kysely<DB> {
  readonly #closeAll: () => Promise<void>;

  constructor(dialect: Dialect, closeAll: () => Promise<void>) {
    super({ dialect });
    this.#closeAll = closeAll;
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    await this.#closeAll();
  }
}
