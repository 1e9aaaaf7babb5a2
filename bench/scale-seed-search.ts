// The SQLite search index (people_search, FTS5 trigram) of the seeded people, built on the other
// core: its tokenising and merging is about a third of the seed's work on one thread. A worker
// writes the rows into an FTS5 table of the same definition in a scratch file while the main
// thread loads the people; the main thread then copies the table's shadow tables (its index
// segments, documents and sizes) into the empty people_search in the seed's transaction.
import { rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { SeedTarget } from './scale-seed.js';

export interface SearchBuild {
  target: SeedTarget;
  count: number;
  firstId: number;
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

export function startSearchBuild(build: SearchBuild) {
  // The bench and the tests run TypeScript through tsx, whose loader a worker registers itself.
  const script = new URL('./scale-seed-search-worker.ts', import.meta.url).href;
  const worker = new Worker(
    `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
      .then((tsx) => tsx.register())
      .then(() => import(${JSON.stringify(script)}))`,
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
    /** Waits for the worker, then copies its index into db's people_search (in db's transaction). */
    async copyInto(db: Database.Database) {
      await done;
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
