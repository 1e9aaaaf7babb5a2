import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { ReadThreads } from '../../src/platform/db/sqlite/read-threads.js';
import { startServer, unique, type TestAccount, type TestServer } from '../support/server.js';

/**
 * SQLite: a whole account's unfiltered page reads little whatever the data (a page in index order,
 * a total capped at 5,000), so it is read at once on the read connection; a filter or an agent's
 * visibility can make a walk read many rows, so those go to the read threads (people.list-page.ts).
 */
describe(
  'GET /v1/people: small reads at once, the others on the read threads',
  { skip: process.env.TEST_DATABASE_URL ? 'SQLite only: read threads' : false },
  () => {
    let server: TestServer;
    let account: TestAccount;
    let agentKey: string;
    let threadReads = 0;
    let threadMessages = 0;
    const original = ReadThreads.prototype.all;
    const post = Worker.prototype.postMessage;

    before(async () => {
      ReadThreads.prototype.all = function (sql, parameters) {
        threadReads += 1;
        return original.call(this, sql, parameters);
      };
      Worker.prototype.postMessage = function (message, transfer) {
        threadMessages += 1;
        return post.call(this, message, transfer);
      };
      server = await startServer();
      account = await server.newAccount();
      const agent = await account.addUser('Agent', unique('Ava'));
      agentKey = agent.key;
      for (const name of ['Ana', 'Ben', 'Cy']) {
        const person = await server.newPerson(account.owner.key, { firstName: name });
        await server.put(account.owner.key, `/v1/people/${person.id}`, {
          assignedUserId: agent.id,
        });
      }
    });
    after(async () => {
      ReadThreads.prototype.all = original;
      Worker.prototype.postMessage = post;
      await server?.close();
    });

    /** The list's answer, how many queries it sent to the read threads and in how many messages. */
    const list = async (key: string, query: string) => {
      const [reads, messages] = [threadReads, threadMessages];
      const res = await server.get(key, `/v1/people?${query}`);
      assert.equal(res.status, 200, res.text);
      return {
        body: res.body,
        threadReads: threadReads - reads,
        threadMessages: threadMessages - messages,
      };
    };

    it("reads the owner's unfiltered page and total on the read connection", async () => {
      const first = await list(account.owner.key, 'limit=2&sort=firstName');
      assert.equal(first.threadReads, 0);
      assert.equal(first.body._metadata.total, 3);
      assert.deepEqual(
        first.body.people.map((p: { firstName: string }) => p.firstName),
        ['Ana', 'Ben'],
      );
      const next = await list(
        account.owner.key,
        `limit=2&sort=firstName&next=${first.body._metadata.next}`,
      );
      assert.equal(next.threadReads, 0);
      assert.deepEqual(
        next.body.people.map((p: { firstName: string }) => p.firstName),
        ['Cy'],
      );
    });

    it('reads again after a change: the new person is counted and listed', async () => {
      assert.equal((await list(account.owner.key, 'limit=10')).body._metadata.total, 3);
      await server.newPerson(account.owner.key, { firstName: 'Dee' });
      const after = await list(account.owner.key, 'limit=10');
      assert.equal(after.threadReads, 0);
      assert.equal(after.body._metadata.total, 4);
      assert.equal(after.body.people[0].firstName, 'Dee');
    });

    it("sends a filtered list and an agent's list to the read threads", async () => {
      const filtered = await list(account.owner.key, 'stage=Lead&limit=10');
      assert.ok(filtered.threadReads > 0, 'a filtered list reads on the read threads');
      assert.equal(filtered.body._metadata.total, 4);
      const agents = await list(agentKey, 'limit=10');
      assert.equal(agents.threadReads, 2, "an agent's page and total, on the read threads");
      assert.equal(agents.threadMessages, 1, 'the two travel together, one message each way');
      assert.equal(agents.body._metadata.total, 3);
    });
  },
);
