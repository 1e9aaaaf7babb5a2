import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { openDatabase, type OpenedDatabase } from '../../src/platform/db/connect.js';
import { withStatementCache } from '../../src/platform/db/sqlite/statement-cache.js';
import type { DB } from '../../src/platform/db/database.js';

/** How Hearth runs statements on SQLite: src/platform/db/sqlite/statement-cache.ts and src/platform/db/sqlite/replanning.ts. */
describe('SQLite statements', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'hearth-statements-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('rows built from a reused statement', () => {
    let sqlite: Database.Database;
    let statements: ReturnType<typeof withStatementCache>;

    before(() => {
      sqlite = new Database(path.join(dir, 'rows.db'));
      sqlite.exec(
        "create table things (id integer primary key, name text, price real); insert into things values (1, 'one', 1.5), (2, 'two', null)",
      );
      statements = withStatementCache(sqlite, () => {});
    });
    after(() => statements.close());

    it('returns the same objects better-sqlite3 returns, for all() and get()', () => {
      const query = 'select * from things order by id';
      assert.deepEqual(statements.prepare(query).all([]), sqlite.prepare(query).all());
      assert.deepEqual(statements.prepare('select * from things where id = ?').get([2]), {
        id: 2,
        name: 'two',
        price: null,
      });
      assert.equal(statements.prepare('select * from things where id = ?').get([3]), undefined);
      assert.deepEqual(statements.prepare('select * from things where id > ?').all([5]), []);
    });

    it('keeps the last of two columns of one name, as better-sqlite3 does', () => {
      const query = 'select id as v, name as v from things where id = 1';
      assert.deepEqual(statements.prepare(query).get([]), sqlite.prepare(query).get());
      assert.deepEqual(statements.prepare(query).get([]), { v: 'one' });
    });

    it('a column named __proto__ is a plain property, not the prototype', () => {
      const row = statements
        .prepare('select name as "__proto__", id from things where id = 1')
        .get([]) as Record<string, unknown>;
      assert.equal(Object.getPrototypeOf(row), Object.prototype);
      assert.ok(Object.hasOwn(row, '__proto__'));
      assert.equal(row.id, 1);
    });

    it('a statement reused across a schema change returns the new columns', () => {
      const query = 'select * from things where id = ?';
      assert.deepEqual(Object.keys(statements.prepare(query).get([1]) as object), [
        'id',
        'name',
        'price',
      ]);
      sqlite.exec("alter table things add column note text default 'n'");
      assert.deepEqual(statements.prepare(query).get([1]), {
        id: 1,
        name: 'one',
        price: 1.5,
        note: 'n',
      });
    });

    it('writes report their changes and row id', () => {
      const result = statements.prepare('insert into things (name) values (?)').run(['three']);
      assert.equal(result.changes, 1);
      assert.equal(result.lastInsertRowid, 3);
    });
  });

  it('closes every connection and thread on destroy(), even when no query ran', async () => {
    const own = mkdtempSync(path.join(dir, 'unused-'));
    const unused = openDatabase(`sqlite:${path.join(own, 'unused.db')}`);
    await unused.db.destroy();
    // The last connection to close removes the WAL and shared-memory files; a reader or
    // checkpoint thread still open would keep them (and go on writing them).
    assert.deepEqual(readdirSync(own), ['unused.db']);
  });

  describe('query plans made once', () => {
    let opened: OpenedDatabase;
    let db: Kysely<DB>;
    const file = () => path.join(dir, 'plans.db');

    before(async () => {
      opened = openDatabase(`sqlite:${file()}`);
      db = opened.db;
    });
    after(async () => {
      await opened.db.destroy();
    });

    it('writes integer LIMIT and OFFSET into the SQL instead of binding them', () => {
      const query = db
        .selectFrom('users')
        .select('id')
        .where('account_id', '=', 7)
        .orderBy('id')
        .limit(25)
        .offset(50)
        .compile();
      assert.match(query.sql, / limit 25 offset 50$/);
      assert.deepEqual(query.parameters, [7]);
    });

    it('still binds a LIMIT that is not a plain non-negative integer', () => {
      const query = db
        .selectFrom('users')
        .select('id')
        .limit(sql<number>`${3}`)
        .compile();
      assert.match(query.sql, / limit \?$/);
      assert.deepEqual(query.parameters, [3]);
      const fraction = db.selectFrom('users').select('id').limit(2.5).compile();
      assert.match(fraction.sql, / limit \?$/);
    });

    it('opens without sqlite_stat4 samples, keeping sqlite_stat1', async () => {
      await opened.db.destroy();
      // As after a bulk import: ANALYZE writes both kinds of statistics.
      const direct = new Database(file());
      direct.exec(
        'create table if not exists samples (id integer primary key, k integer); create index if not exists samples_k on samples (k)',
      );
      const insert = direct.prepare('insert into samples (k) values (?)');
      direct.transaction(() => {
        for (let i = 0; i < 2000; i++) insert.run(i % 37);
      })();
      direct.exec('analyze');
      assert.ok(
        (direct.prepare('select count(*) as n from sqlite_stat4').get() as { n: number }).n > 0,
      );
      direct.close();

      opened = openDatabase(`sqlite:${file()}`);
      db = opened.db;
      const stat4 = await sql<{ n: number }>`select count(*) as n from sqlite_stat4`.execute(db);
      assert.equal(stat4.rows[0].n, 0);
      const stat1 = await sql<{
        n: number;
      }>`select count(*) as n from sqlite_stat1 where tbl = 'samples'`.execute(db);
      assert.ok(stat1.rows[0].n > 0);
    });
  });
});
