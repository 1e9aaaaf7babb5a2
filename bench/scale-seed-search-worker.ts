// Worker thread of scale-seed-search.ts: writes the FTS5 rows of people firstId… (made again by
// the same deterministic generator, so nothing crosses the thread boundary) into an FTS5 table
// of the same definition in a database file of its own.
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { generator, searchRow } from './scale-seed.js';
import { inserter } from './scale-seed-sqlite.js';
import type { SearchBuild } from './scale-seed-search.js';

const { target, count, firstId, file, createTable } = workerData as SearchBuild;
const db = new Database(file);
try {
  db.pragma('journal_mode = off'); // a scratch file: a failure throws it away
  db.pragma('synchronous = off');
  db.exec(createTable);
  // Few, big segments: flushed every 256 MiB of terms rather than FTS5's default 1 MiB.
  db.exec(`insert into people_search (people_search, rank) values ('hashsize', ${256 << 20})`);
  db.exec('begin');
  const make = generator(target, count);
  const search = inserter(db, 'people_search', ['rowid', 'names', 'emails', 'phones']);
  for (let i = 0; i < count; i++) {
    search.add(firstId + i);
    for (const value of searchRow(make(i))) search.add(value);
  }
  search.flush();
  db.exec('commit');
} finally {
  db.close();
}
