import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { openDatabase, type OpenedDatabase } from '../../src/platform/db/connect.js';

/**
 * The read threads' results remembered until content changes (remembered-reads.ts): the same
 * query over unchanged data is answered with the same (frozen) rows, and any commit that may
 * change content, by this process or another, has it read again.
 */
describe('SQLite remembered reads', () => {
  let dir: string;
  let file: string;
  let opened: OpenedDatabase;
  let unremembering: OpenedDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const threads = (db: OpenedDatabase) => db.db.heavyReads() as unknown as Kysely<any>;
  const read = (db = opened, deadline = 1n) =>
    sql<{
      id: number;
      value: string;
    }>`select id, value from items where ${deadline} > 0 order by id`.execute(threads(db));
  const write = (statement: string) =>
    opened.db.transaction().execute((trx) => sql.raw(statement).execute(trx));

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'hearth-remembered-'));
    file = path.join(dir, 'remembered.db');
    opened = openDatabase(`sqlite:${file}`);
    unremembering = openDatabase(`sqlite:${file}`, { rememberedReads: false });
    await sql`create table items (id integer primary key, value text)`.execute(opened.db);
    await sql`create table outbox (id integer primary key, event text)`.execute(opened.db);
    await write(`insert into items (value) values ('a')`);
  });
  after(async () => {
    await opened.db.destroy();
    await unremembering.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the same query with the same frozen rows, whatever its time budget', async () => {
    const first = await read(opened, 1n);
    const again = await read(opened, 2n);
    assert.deepEqual(first.rows, [{ id: 1, value: 'a' }]);
    assert.equal(again.rows[0], first.rows[0], 'the remembered row itself');
    assert.ok(Object.isFrozen(again.rows[0]), 'no caller can change what the next one gets');
    again.rows.pop();
    assert.equal((await read()).rows.length, 1, 'each caller gets its own array');
  });

  it('keeps them across a bookkeeping write and reads again after a content write', async () => {
    const before = (await read()).rows[0];
    await write(`insert into "outbox" ("event") values ('peopleCreated')`);
    assert.equal((await read()).rows[0], before);
    await write(`update items set value = 'b' where id = 1`);
    assert.deepEqual((await read()).rows, [{ id: 1, value: 'b' }]);
  });

  it('reads again after another process commits to the file', async () => {
    await read();
    const other = new Database(file);
    other.prepare(`insert into items (value) values ('from elsewhere')`).run();
    other.close();
    assert.deepEqual(
      (await read()).rows.map((row) => row.value),
      ['b', 'from elsewhere'],
    );
  });

  it('remembers nothing with HEARTH_DB_SHORTCUTS below on', async () => {
    const first = await read(unremembering);
    const again = await read(unremembering);
    assert.deepEqual(again.rows, first.rows);
    assert.notEqual(again.rows[0], first.rows[0], 'read again');
  });
});
