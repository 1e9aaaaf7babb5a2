// The SQLite search index (people_search, FTS5 trigram) of the seeded people, built on the other
// core: its tokenising and merging is about a third of the seed's work on one thread. A worker
// writes the rows into an FTS5 table of the same definition in a scratch file while the main
// thread loads the people; the main thread then copies the table's shadow tables (its index
// segments, documents and sizes) into the empty people_search in the seed's transaction.
import { rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { generator, searchRow, type SeedTarget } from './scale-seed.js';
import { inserter } from './scale-seed-sqlite.js';

/** The search rows of people firstId… (generated again from the target: the same people). */
interface SearchRows {
  target: SeedTarget;
  count: number;
  firstId: number;
}

export interface SearchBuild extends SearchRows {
  /** the scratch database file */
  file: string;
  /** people_search's CREATE VIRTUAL TABLE statement */
  createTable: string;
}

/** FTS5's shadow tables that hold the rows and the index (its configuration stays as it is). */
const SHADOW_TABLES = ['data', 'idx', 'content', 'docsize'].map((t) => `people_search_${t}`);

/** people_search holds no rows, so a copy of another table's index is the whole index. */
export const searchIndexIsEmpty = (db: Database.Database) =>
  !db.prepare('select 1 from people_search_docsize limit 1').get();

/**
 * FTS5 keeps the terms of the rows written since its last flush in memory and writes them out as
 * a new segment past `hashsize` bytes (1 MiB by default), merging segments as they pile up: at a
 * million people that is hundreds of small segments merged again and again. With 256 MiB it
 * flushes a few times and the index comes out in fewer, bigger segments (better for searches,
 * too). Set for the load only: the table's configuration is as it was after it.
 */
const FTS_LOAD_CONFIG: Record<string, number> = { hashsize: 256 * 1024 * 1024 };
/** The defaults the configuration goes back to (fts5_config.c). */
const FTS_DEFAULTS: Record<string, number> = { hashsize: 1024 * 1024 };

/** Sets FTS5 options of people_search for a load; returns how to put its configuration back. */
function tuneSearchIndex(db: Database.Database) {
  const before = db.prepare('select k, v from people_search_config').all() as {
    k: string;
    v: unknown;
  }[];
  const set = (key: string, value: number) =>
    db.exec(`insert into people_search (people_search, rank) values ('${key}', ${value})`);
  for (const [key, value] of Object.entries(FTS_LOAD_CONFIG)) set(key, value);
  return () => {
    for (const key of Object.keys(FTS_LOAD_CONFIG)) {
      const was = before.find((row) => row.k === key);
      set(key, typeof was?.v === 'number' ? was.v : FTS_DEFAULTS[key]);
      if (was) continue;
      // No row, as before (FTS5's shadow tables are written directly only outside defensive mode).
      db.unsafeMode(true);
      db.prepare('delete from people_search_config where k = ?').run(key);
      db.unsafeMode(false);
    }
  };
}

/** Writes the FTS5 rows (in db's transaction, if one is open). */
export function writeSearchRows(db: Database.Database, { target, count, firstId }: SearchRows) {
  const restoreConfig = tuneSearchIndex(db);
  const make = generator(target, count);
  const search = inserter(db, 'people_search', ['rowid', 'names', 'emails', 'phones']);
  for (let i = 0; i < count; i++) {
    search.add(firstId + i);
    for (const value of searchRow(make(i))) search.add(value);
  }
  search.flush();
  restoreConfig();
}

export function startSearchBuild(build: SearchBuild) {
  // From source (the bench, tests under tsx) the worker registers tsx's loader itself; the tests'
  // build (scripts/build-tests.mjs) has the worker compiled beside this file.
  const compiled = import.meta.url.endsWith('.js');
  const script = new URL(`./scale-seed-search-worker.${compiled ? 'js' : 'ts'}`, import.meta.url);
  const worker = compiled
    ? new Worker(script, { workerData: build })
    : new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
      .then((tsx) => tsx.register())
      .then(() => import(${JSON.stringify(script.href)}))`,
        { eval: true, workerData: build },
      );
  const done = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`search index worker exited with ${code}`)),
    );
  });
  const remove = () => {
    for (const suffix of ['', '-journal']) rmSync(`${build.file}${suffix}`, { force: true });
  };
  return {
    /**
     * Waits for the worker, then copies its index into db's people_search (in db's transaction);
     * false if the worker failed.
     */
    async copyInto(db: Database.Database) {
      if (!(await done.then(() => true).catch(() => false))) return false;
      db.prepare('attach ? as search_build').run(build.file);
      // Writing FTS5's shadow tables directly is what SQLite's defensive mode stops, for this copy only.
      db.unsafeMode(true);
      try {
        for (const table of SHADOW_TABLES) {
          db.exec(`delete from main.${table}`);
          db.exec(`insert into main.${table} select * from search_build.${table}`);
        }
      } finally {
        db.unsafeMode(false);
      }
      return true;
    },
    /** After the transaction: detaches and removes the scratch file (or stops the worker). */
    async dispose(db: Database.Database) {
      await worker.terminate();
      await done.catch(() => undefined);
      const attached = db.prepare("select 1 from pragma_database_list where name = 'search_build'");
      if (attached.get()) db.exec('detach search_build');
      remove();
    },
  };
}
