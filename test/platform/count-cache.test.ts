import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { openDatabase, type OpenedDatabase } from '../../src/platform/db/connect.js';
import { countRows } from '../../src/platform/db/count-cache.js';
import { syncReaderOf } from '../../src/platform/db/hearth-db.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import {
  BOOKKEEPING_TABLES,
  ContentVersion,
} from '../../src/platform/db/sqlite/content-version.js';

/**
 * Remembered list totals on SQLite (count-cache.ts): dropped by every commit that may change
 * content, by this process or another, and kept across bookkeeping writes (content-version.ts).
 */
describe('SQLite list totals', () => {
  let dir: string;
  let opened: OpenedDatabase;
  let file: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = () => opened.db as unknown as Kysely<any>;
  const count = (table: string) =>
    countRows(
      opened.db,
      db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('total')),
    );
  const totals = () => syncReaderOf(opened.db)!.remembered().totals;
  const write = (statement: string) =>
    opened.db.transaction().execute((trx) => sql.raw(statement).execute(trx));

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'hearth-totals-'));
    file = path.join(dir, 'totals.db');
    opened = openDatabase(`sqlite:${file}`);
    await sql`create table items (id integer primary key, value text)`.execute(opened.db);
    await sql`create table outbox (id integer primary key, event text)`.execute(opened.db);
    await write(`insert into items (value) values ('a')`);
  });
  after(async () => {
    await opened.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the totals across a bookkeeping write, and counts again after a content write', async () => {
    assert.equal(await count('items'), 1);
    const remembered = totals();
    assert.equal(remembered.size, 1);
    await write(`insert into "outbox" ("event") values ('peopleCreated')`);
    assert.equal(totals(), remembered, 'an outbox row leaves the totals as they were');
    assert.equal(await count('items'), 1);
    await write(`insert into "items" ("value") values ('b')`);
    assert.notEqual(totals(), remembered);
    assert.equal(await count('items'), 2);
  });

  it('counts again after a write outside a transaction', async () => {
    assert.equal(await count('items'), 2);
    await sql`delete from items where value = 'b'`.execute(opened.db);
    assert.equal(await count('items'), 1);
  });

  it("a bookkeeping table's own total follows its writes", async () => {
    const before = await count('outbox');
    await write(`insert into "outbox" ("event") values ('eventsCreated')`);
    assert.equal(await count('outbox'), before + 1);
  });

  it('counts again after another process commits to the file', async () => {
    assert.equal(await count('items'), 1);
    const other = new Database(file);
    other.prepare(`insert into items (value) values ('from elsewhere')`).run();
    other.close();
    assert.equal(await count('items'), 2);
  });

  it('no migration puts a trigger on a bookkeeping table (its writes would change content)', async () => {
    const migrated = openDatabase(`sqlite:${path.join(dir, 'schema.db')}`);
    try {
      await migrateToLatest(migrated.db, 'sqlite');
      const { rows } = await sql<{ name: string; tbl_name: string }>`
        select name, tbl_name from sqlite_master where type = 'trigger'`.execute(migrated.db);
      assert.ok(rows.length > 0, 'the schema has triggers to look at');
      const onBookkeeping = rows.filter((r) => BOOKKEEPING_TABLES.includes(r.tbl_name));
      assert.deepEqual(onBookkeeping, []);
    } finally {
      await migrated.db.destroy();
    }
  });
});

describe('what a write changes (content-version.ts)', () => {
  const versionAfter = (...statements: string[]) => {
    const version = new ContentVersion(() => 7);
    const before = { content: version.content(), bookkeeping: version.bookkeeping() };
    for (const statement of statements) version.wrote(statement);
    version.settled();
    return {
      content: version.content() !== before.content,
      bookkeeping: version.bookkeeping() !== before.bookkeeping,
    };
  };

  it("audit rows, job claims, outbox marks and sessions' last use are bookkeeping", () => {
    assert.deepEqual(versionAfter('update "sessions" set "last_used_at" = ? where "id" = ?'), {
      content: false,
      bookkeeping: true,
    });
    assert.deepEqual(versionAfter('insert into "mcp_tool_calls" ("tool") values (?)'), {
      content: false,
      bookkeeping: true,
    });
    assert.deepEqual(
      versionAfter('update "lead_jobs" set "locked_until" = ? where "id" in (select 1)'),
      { content: false, bookkeeping: true },
    );
    assert.deepEqual(versionAfter('UPDATE outbox SET dispatched_at = ?'), {
      content: false,
      bookkeeping: true,
    });
  });

  it('anything else, or anything it cannot read, is content', () => {
    assert.deepEqual(versionAfter('insert into "people" ("name") values (?)'), {
      content: true,
      bookkeeping: false,
    });
    assert.deepEqual(versionAfter('with x as (select 1) insert into "outbox" select * from x'), {
      content: true,
      bookkeeping: false,
    });
    assert.deepEqual(versionAfter('create index i on outbox (event)'), {
      content: true,
      bookkeeping: false,
    });
    assert.deepEqual(versionAfter('insert into "outboxes" ("a") values (?)'), {
      content: true,
      bookkeeping: false,
    });
  });

  it("another connection's commit changes the content version", () => {
    let others = 1;
    const version = new ContentVersion(() => others);
    const before = version.content();
    others = 2;
    assert.notEqual(version.content(), before);
  });
});
