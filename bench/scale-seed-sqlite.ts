// The SQLite loader of scale-seed.ts: one connection of its own, tuned for one big write, that
// sets the people tables' indexes and triggers aside, appends every row with multi-row inserts
// reused for the whole load, builds the indexes back and commits once.
import Database from 'better-sqlite3';
import { PERSON_COLUMNS, type SeedSource } from './scale-seed.js';
import { searchIndexIsEmpty, startSearchBuild, writeSearchRows } from './scale-seed-search.js';

/** The tables one person's rows go to; their indexes and triggers wait until the load is done. */
const PEOPLE_TABLES = ['people', 'person_emails', 'person_phones', 'person_tags'];
/** Rows per insert statement (SQLite allows 32,766 parameters: people's 23 columns fit 1,400). */
const ROWS_PER_INSERT = 500;
type Value = string | number | null;

/**
 * Appends rows to a table: values go into one reused parameter array, run as a multi-row insert
 * each time it is full; `flush` writes what is left.
 */
export function inserter(db: Database.Database, table: string, columns: string[]) {
  const one = `(${columns.map(() => '?').join(', ')})`;
  const statement = (rows: number) =>
    db.prepare(
      `insert into ${table} (${columns.join(', ')}) values ${Array(rows).fill(one).join(', ')}`,
    );
  const full = statement(ROWS_PER_INSERT);
  const params: Value[] = new Array<Value>(ROWS_PER_INSERT * columns.length);
  let at = 0;
  return {
    add(value: Value) {
      params[at++] = value;
      if (at === params.length) {
        full.run(params);
        at = 0;
      }
    },
    flush() {
      if (at > 0) statement(at / columns.length).run(params.slice(0, at));
      at = 0;
    },
  };
}

/** Returns the id of the first person written (the others follow in order). */
export async function seedSqlite(source: SeedSource, file: string): Promise<number> {
  const { target, count, make, lap } = source;
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('threads = 2'); // index builds sort with a helper thread
  db.pragma('synchronous = off');
  db.pragma('foreign_keys = off'); // every reference is made consistent by construction
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = memory');
  const lastId = () =>
    db.prepare('select coalesce(max(id), 0) from people').pluck().get() as number;
  // The search index is built on the other core when it starts empty (as in the bench).
  let started: ReturnType<typeof startSearchBuild> | null = null;
  try {
    const before = lastId();
    const build = (started = searchIndexIsEmpty(db)
      ? startSearchBuild({
          target,
          count,
          firstId: before + 1,
          file: `${file}-seed-search-${process.pid}`,
          createTable: db
            .prepare("select sql from sqlite_master where name = 'people_search'")
            .pluck()
            .get() as string,
        })
      : null);
    const setAside = db
      .prepare(
        `select type, name, sql from sqlite_master where type in ('index', 'trigger')
         and sql is not null and tbl_name in (${PEOPLE_TABLES.map(() => '?').join(', ')})`,
      )
      .all(...PEOPLE_TABLES) as { type: string; name: string; sql: string }[];
    db.exec('begin immediate');
    for (const { type, name } of setAside) db.exec(`drop ${type} ${name}`);
    const last = lastId();
    // Unless a writer came in between, in which case the rows are written here.
    const copySearch = build && last === before && searchIndexIsEmpty(db);
    const people = inserter(db, 'people', ['id', ...PERSON_COLUMNS]);
    const lookup = (table: string, column: string) =>
      inserter(db, table, ['account_id', 'person_id', column]);
    const emails = lookup('person_emails', 'email');
    const phones = lookup('person_phones', 'normalized');
    const tags = lookup('person_tags', 'tag');
    lap('setup');
    for (let i = 0; i < count; i++) {
      const p = make(i);
      const id = last + 1 + i;
      const accountId = p.values[0];
      people.add(id);
      for (const value of p.values) people.add(value);
      const lookupRow = (into: ReturnType<typeof lookup>, value: string) => {
        into.add(accountId);
        into.add(id);
        into.add(value);
      };
      lookupRow(emails, p.email);
      lookupRow(phones, p.phone);
      for (const tag of p.tags) lookupRow(tags, tag);
    }
    for (const table of [people, emails, phones, tags]) table.flush();
    lap('insert');
    for (const { sql } of setAside) db.exec(sql);
    lap('index');
    // The FTS5 rows the people_search_insert trigger would have written: the worker's, or written
    // here (the worker could not start, say) from the same generator.
    if (copySearch && (await build.copyInto(db))) lap('search index copy');
    else {
      writeSearchRows(db, { target, count, firstId: last + 1 });
      lap('search index');
    }
    db.exec('commit');
    lap('commit');
    await build?.dispose(db);
    db.exec('analyze');
    lap('analyze');
    db.pragma('wal_checkpoint(TRUNCATE)');
    lap('checkpoint');
    return last + 1;
  } catch (error) {
    if (db.inTransaction) db.exec('rollback');
    throw error;
  } finally {
    await started?.dispose(db);
    db.close();
  }
}
