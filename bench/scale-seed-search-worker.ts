// Worker thread of scale-seed-search.ts: writes the FTS5 rows of people firstId… (made again by
// the same deterministic generator, so nothing crosses the thread boundary) into an FTS5 table
// of the same definition in a database file of its own.
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { type SearchBuild, writeSearchRows } from './scale-seed-search.js';

const { target, count, firstId, file, createTable } = workerData as SearchBuild;
const db = new Database(file);
try {
  db.pragma('journal_mode = off'); // a scratch file: a failure throws it away
  db.pragma('synchronous = off');
  db.exec(createTable);
  db.exec('begin');
  writeSearchRows(db, { target, count, firstId });
  db.exec('commit');
} finally {
  db.close();
}
