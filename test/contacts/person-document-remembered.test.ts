import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { HearthDb } from '../../src/platform/db/hearth-db.js';
import { startServer, unique, type TestAccount, type TestServer } from '../support/server.js';

/**
 * SQLite: a person's document read by id is remembered until a commit may have changed content
 * (remembered-reads.ts readOneAtOnce), by this process or another on the same file. Every change
 * that shows in the document or in who may see it must show at once.
 */
describe(
  'GET /v1/people/:id: the document remembered until the data changes',
  { skip: process.env.TEST_DATABASE_URL ? 'SQLite only: the read connection' : false },
  () => {
    let server: TestServer;
    let account: TestAccount;
    let agent: { id: number; key: string };
    let personId: number;
    let readerReads = 0;

    before(async () => {
      server = await startServer();
      account = await server.newAccount();
      agent = await account.addUser('Agent', unique('Ava'));
      personId = (await server.newPerson(account.owner.key, { firstName: 'Mara' })).id;
      await server.put(account.owner.key, `/v1/people/${personId}`, { assignedUserId: agent.id });
      const reader = (server.ctx.db as HearthDb).reader!;
      const get = reader.get;
      reader.get = (sql, parameters) => {
        readerReads += 1;
        return get(sql, parameters);
      };
    });
    after(() => server?.close());

    /** The person as `key` reads it, and how many reads reached SQLite's read connection. */
    const read = async (key: string) => {
      const before = readerReads;
      const res = await server.get(key, `/v1/people/${personId}`);
      return { status: res.status, body: res.body, reads: readerReads - before };
    };

    it('answers a second read without reading the database again', async () => {
      const first = await read(account.owner.key);
      assert.equal(first.status, 200);
      assert.equal(first.body.firstName, 'Mara');
      const second = await read(account.owner.key);
      assert.deepEqual(second.body, first.body);
      assert.equal(second.reads, 0, 'the second read reached SQLite');
    });

    it('shows a change to the person at once', async () => {
      await read(account.owner.key);
      const put = await server.put(account.owner.key, `/v1/people/${personId}`, {
        firstName: 'Marta',
      });
      assert.equal(put.status, 200, put.text);
      assert.equal((await read(account.owner.key)).body.firstName, 'Marta');
    });

    it('shows a renamed stage at once, though the person row did not change', async () => {
      const made = await server.post(account.owner.key, '/v1/stages', { name: unique('Warm') });
      assert.equal(made.status, 201, made.text);
      await server.put(account.owner.key, `/v1/people/${personId}`, { stage: made.body.name });
      assert.equal((await read(account.owner.key)).body.stage, made.body.name);
      const renamed = unique('Hot');
      const put = await server.put(account.owner.key, `/v1/stages/${made.body.id}`, {
        name: renamed,
      });
      assert.equal(put.status, 200, put.text);
      assert.equal((await read(account.owner.key)).body.stage, renamed);
    });

    it('stops showing the person to an agent at once when reassigned', async () => {
      assert.equal((await read(agent.key)).status, 200);
      assert.equal((await read(agent.key)).reads, 0);
      const put = await server.put(account.owner.key, `/v1/people/${personId}`, {
        assignedUserId: account.owner.id,
      });
      assert.equal(put.status, 200, put.text);
      assert.equal((await read(agent.key)).status, 404);
    });

    it("shows another process's change to the file at once", async () => {
      await read(account.owner.key);
      const other = new Database(path.join(server.dataDir, 'hearth.db'));
      try {
        other.pragma('busy_timeout = 5000');
        other.prepare('update people set last_name = ? where id = ?').run('Elsewhere', personId);
      } finally {
        other.close();
      }
      assert.equal((await read(account.owner.key)).body.lastName, 'Elsewhere');
    });
  },
);
