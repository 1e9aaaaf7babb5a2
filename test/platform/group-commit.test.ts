import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase, type OpenedDatabase } from '../../src/platform/db/connect.js';

/** SQLite transactions that queue up share one COMMIT (src/platform/db/sqlite/group-commit.ts). */
describe('SQLite group commit', () => {
  let dir: string;
  let opened: OpenedDatabase;
  let observer: Database.Database;
  const visible = (value: string) =>
    observer.prepare('select count(*) as n from items where value = ?').get(value) as { n: number };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'hearth-group-'));
    const file = path.join(dir, 'group.db');
    opened = openDatabase(`sqlite:${file}`);
    await sql`create table items (id integer primary key, value text not null unique)`.execute(
      opened.db,
    );
    // Another connection, as another process would see the file.
    observer = new Database(file, { readonly: true });
  });
  after(async () => {
    observer.close();
    await opened.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (value: string) =>
    opened.db.transaction().execute(async (trx) => {
      await sql`insert into items (value) values (${value})`.execute(trx);
      return value;
    });

  it('each caller resumes only once its change is committed and visible to other connections', async () => {
    const seenAtResolution: number[] = [];
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        insert(`durable-${i}`).then((value) => {
          seenAtResolution.push(visible(value).n);
        }),
      ),
    );
    assert.equal(seenAtResolution.length, 60);
    assert.deepEqual(new Set(seenAtResolution), new Set([1]));
  });

  it('transactions that queue up share COMMITs: 60 inserts commit in a few groups', async () => {
    assert.ok((await commitsOf(opened, 'shared')) <= 10);
  });

  it('without group commit (HEARTH_DB_SHORTCUTS=compiled or off) each transaction commits alone', async () => {
    const file = path.join(dir, 'plain.db');
    const plain = openDatabase(`sqlite:${file}`, { groupCommit: false });
    await sql`create table items (id integer primary key, value text not null unique)`.execute(
      plain.db,
    );
    const plainObserver = new Database(file, { readonly: true });
    try {
      assert.equal(await commitsOf(plain, 'alone', plainObserver), 60);
    } finally {
      plainObserver.close();
      await plain.db.destroy();
    }
  });

  /**
   * How many COMMITs 60 concurrent inserts took: each caller resumes once its group has committed,
   * so the rows another connection sees at that moment tell the groups apart.
   */
  async function commitsOf(database: OpenedDatabase, prefix: string, reader = observer) {
    const seen = new Set<number>();
    const count = () =>
      (
        reader.prepare('select count(*) as n from items where value like ?').get(`${prefix}-%`) as {
          n: number;
        }
      ).n;
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        database.db
          .transaction()
          .execute((trx) =>
            sql`insert into items (value) values (${`${prefix}-${i}`})`.execute(trx),
          )
          .then(() => seen.add(count())),
      ),
    );
    return seen.size;
  }

  it('a failing transaction is rolled back alone; the others in its group commit', async () => {
    const outcomes = await Promise.allSettled([
      insert('group-a'),
      opened.db.transaction().execute(async (trx) => {
        await sql`insert into items (value) values ('group-doomed')`.execute(trx);
        throw new Error('the handler failed after writing');
      }),
      insert('group-b'),
      insert('group-a'), // unique violation: fails alone
      insert('group-c'),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /the handler failed/);
    assert.match(String((outcomes[3] as PromiseRejectedResult).reason), /UNIQUE/);
    assert.equal(visible('group-doomed').n, 0);
    for (const value of ['group-a', 'group-b', 'group-c']) assert.equal(visible(value).n, 1, value);
  });

  it('a change made outside a transaction while a group is open is committed before its caller resumes', async () => {
    const plain = (async () => {
      await sql`insert into items (value) values ('plain-write')`.execute(opened.db);
      return visible('plain-write').n;
    })();
    const [, seen] = await Promise.all([insert('beside-plain'), plain, insert('after-plain')]);
    assert.equal(seen, 1);
  });

  it('a write with RETURNING outside a transaction is committed before its caller resumes', async () => {
    const [, returned] = await Promise.all([
      insert('beside-returning'),
      sql<{
        id: number;
        value: string;
      }>`insert into items (value) values ('returning-write') returning id, value`
        .execute(opened.db)
        .then((r) => {
          return { row: r.rows[0], seen: visible('returning-write').n };
        }),
    ]);
    assert.equal(returned.row.value, 'returning-write');
    assert.equal(returned.seen, 1);
  });

  it('a read outside a transaction never sees changes that are not yet committed', async () => {
    const pending = insert('not-yet');
    // Runs while the insert above sits in an open group, waiting for its COMMIT.
    const read = sql<{ n: number }>`select count(*) as n from items where value = 'not-yet'`
      .execute(opened.db)
      .then((r) => ({
        readSaw: r.rows[0].n,
        committed: visible('not-yet').n,
      }));
    const [, outcome] = await Promise.all([pending, read]);
    assert.ok(
      outcome.readSaw <= outcome.committed,
      `the read saw ${outcome.readSaw} row(s) while ${outcome.committed} were committed`,
    );
  });

  it('reads inside a transaction see its own writes; nothing leaks out of a rolled-back one', async () => {
    const inside = await opened.db.transaction().execute(async (trx) => {
      await sql`insert into items (value) values ('read-own')`.execute(trx);
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from items where value = 'read-own'`.execute(trx);
      return rows[0].n;
    });
    assert.equal(inside, 1);
    await assert.rejects(
      opened.db.transaction().execute(async (trx) => {
        await sql`insert into items (value) values ('never')`.execute(trx);
        throw new Error('no');
      }),
    );
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from items where value = 'never'`.execute(opened.db);
    assert.equal(rows[0].n, 0);
  });
});

describe('SQLite group commit: closing the database', () => {
  it('commits the finished transactions of an open group and abandons one still in progress', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hearth-group-close-'));
    const file = path.join(dir, 'close.db');
    const opened = openDatabase(`sqlite:${file}`);
    await sql`create table items (id integer primary key, value text not null)`.execute(opened.db);
    const finished = opened.db.transaction().execute(async (trx) => {
      await sql`insert into items (value) values ('finished')`.execute(trx);
    });
    let reachedMiddle: () => void = () => {};
    const middle = new Promise<void>((resolve) => (reachedMiddle = resolve));
    const halfDone = opened.db.transaction().execute(async (trx) => {
      await sql`insert into items (value) values ('first half')`.execute(trx);
      reachedMiddle();
      await new Promise((r) => setTimeout(r, 50));
      await sql`insert into items (value) values ('second half')`.execute(trx);
    });
    halfDone.catch(() => {});
    await middle;
    await opened.db.destroy();
    await finished;
    await assert.rejects(halfDone);
    const check = new Database(file, { readonly: true });
    try {
      const values = (
        check.prepare('select value from items order by id').all() as { value: string }[]
      ).map((r) => r.value);
      assert.deepEqual(values, ['finished']);
    } finally {
      check.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite WAL checkpoints run in the background', () => {
  it('copies committed pages into the database file without the writer checkpointing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hearth-checkpoint-'));
    const file = path.join(dir, 'checkpoint.db');
    const opened = openDatabase(`sqlite:${file}`);
    try {
      await sql`create table blobs (id integer primary key, body text not null)`.execute(opened.db);
      const { statSync } = await import('node:fs');
      const before = statSync(file).size;
      // About 4 MB: far below the writer's own checkpoint threshold (WRITER_AUTOCHECKPOINT_PAGES).
      await opened.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 1000; i++)
          await sql`insert into blobs (body) values (${'x'.repeat(4000)})`.execute(trx);
      });
      assert.ok(statSync(`${file}-wal`).size > 4_000_000, 'the commit went to the WAL');
      const deadline = Date.now() + 10_000;
      while (statSync(file).size < before + 4_000_000 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      assert.ok(
        statSync(file).size >= before + 4_000_000,
        'the background checkpoint copied the pages into the database file',
      );
    } finally {
      await opened.db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
