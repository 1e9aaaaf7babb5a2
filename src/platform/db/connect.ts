import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { PostgresDialect } from 'kysely';
import { GroupCommitSqliteDialect } from './sqlite/group-commit.js';
import { startCheckpointer, WRITER_AUTOCHECKPOINT_PAGES } from './sqlite/checkpointer.js';
import { HearthDb, type SyncReader } from './hearth-db.js';
import { ListLanes } from './list-lanes.js';
import type { DbShortcuts } from '../config.js';
import { dialectOf, type DialectName } from './dialect.js';
import { withStatementCache } from './sqlite/statement-cache.js';
import { dropStat4Samples } from './sqlite/replanning.js';
import { registerQueryBudget } from './sqlite/budget-function.js';
import { ensurePrivateDatabaseFiles } from '../private-files.js';
import { withIdempotencyClaims } from '../idempotency/claim.js';
import { ReadThreads, readThreadsDb } from './sqlite/read-threads.js';
import { listConcurrency } from './list-concurrency.js';
import { ContentVersion } from './sqlite/content-version.js';
import { type RememberedReads, RowMemory } from './remembered-reads.js';

// COUNT(*) and other int8 results come back as strings by default; our counts fit in a double.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export interface OpenedDatabase {
  db: HearthDb;
  dialect: DialectName;
}

export type { SyncReader } from './hearth-db.js';

const nothingRemembered = (): RememberedReads => ({ totals: new Map(), rows: new RowMemory() });

function openReader(
  file: string,
  version: ContentVersion,
  remember: boolean,
): SyncReader & { close(): Promise<void> } {
  const connection = new Database(file, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  connection.pragma('temp_store = MEMORY');
  registerQueryBudget(connection);
  // List totals vary with the filters combined, so the shapes are many: keep the recent ones.
  const statements = withStatementCache(connection, () => {}, 500);
  let memory = { version: '', reads: nothingRemembered() };
  return {
    get: (sql, parameters) => statements.prepare(sql).get(parameters),
    all: (sql, parameters) => statements.prepare(sql).all(parameters),
    remembered() {
      if (!remember) return nothingRemembered();
      const now = version.content();
      if (memory.version !== now) memory = { version: now, reads: nothingRemembered() };
      return memory.reads;
    },
    bookkeepingVersion: () => version.bookkeeping(),
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
    // A lead event's savepoint journal passes the 64 KiB after which it would spill to a temporary
    // file; in memory its SQL is faster (docs/performance-cpu.md). Sorts without an index too.
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
    // The writer's own data_version moves only for other connections' commits.
    const othersVersion = sqlite.prepare('pragma data_version').pluck();
    const version = new ContentVersion(() => othersVersion.get() as number);
    // An in-memory database is private to its connection: there is nothing a second one could read.
    const reader =
      file === ':memory:' ? null : openReader(file, version, options.rememberedReads !== false);
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
    const kyselyDialect = withIdempotencyClaims(
      new GroupCommitSqliteDialect(sqlite, statements, {
        grouped: options.groupCommit !== false,
        version,
      }),
      dialect,
    );
    // Its single-row lookups and the data version still come from the main read connection.
    const openReadThreads = () => readThreadsDb((threads = new ReadThreads(file, lists)), reader!);
    const db = new HearthDb(kyselyDialect, {
      reader,
      openReadThreads: reader ? openReadThreads : null,
      compilesOnce: options.compiledQueries !== false,
      close: () => statements.close(),
    });
    return { db, dialect };
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // No JIT compilation: Hearth's queries are short, and JIT cost lists more in compiling than it
  // saved (PostgreSQL's advice for OLTP work; docs/performance.md). The setting is queued on the new connection before any query it is handed for.
  pool.on('connect', (client) => {
    client.query('set jit = off').catch(() => {});
  });
  const db = new HearthDb(withIdempotencyClaims(new PostgresDialect({ pool }), dialect), {
    pool,
    // One connection at least stays free of lists for everything else.
    listLanes: new ListLanes(Math.max(1, Math.min(lists, poolSize - 1))),
    compilesOnce: options.compiledQueries !== false,
  });
  return { db, dialect };
}
