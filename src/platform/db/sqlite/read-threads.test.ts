import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { READ_THREAD_NICENESS, ReadThreads } from './read-threads.js';

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceness(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('SQLite read threads', { skip: process.platform !== 'linux' && 'Linux only' }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-read-threads-'));
  const file = path.join(dir, 'read.db');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answer queries at a lower priority than the event loop', async () => {
    const writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('create table t (n integer); insert into t values (1), (2), (3)');
    const before = threadNiceness().filter((nice) => nice === READ_THREAD_NICENESS).length;
    const threads = new ReadThreads(file, 2);
    try {
      // Each thread answers once it has started (and set its priority).
      const answers = await Promise.all([
        threads.all('select sum(n) as total from t', []),
        threads.all('select count(*) as rows from t', []),
      ]);
      assert.deepEqual(answers, [[{ total: 6 }], [{ rows: 3 }]]);
      const lowered = threadNiceness().filter((nice) => nice === READ_THREAD_NICENESS).length;
      assert.equal(lowered - before, 2);
    } finally {
      await threads.close();
      writer.close();
    }
  });

  it('close() waits for a thread still answering a query, keeping the process alive', async () => {
    // A query whose answer comes after close() has begun: answering it must not let the thread
    // stop holding the process open (the event loop would then end with close() still pending).
    const threads = new ReadThreads(file, 1);
    const slow = threads
      .all(
        `with recursive c(i) as (select 1 union all select i + 1 from c where i < 3000000)
         select count(*) as n from c`,
        [],
      )
      .then(
        (rows) => rows,
        (error: unknown) => error,
      );
    await new Promise((resolve) => setTimeout(resolve, 20)); // the thread is reading
    await threads.close();
    assert.deepEqual(await slow, [{ n: 3_000_000 }]);
  });
});
