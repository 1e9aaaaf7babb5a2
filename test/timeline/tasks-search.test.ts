import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, unique, type TestServer } from '../support/server.js';
import { buildAgentsWithPerson, buildPerson, buildTask } from '../support/factories.js';

/** `q` on GET /v1/tasks: the global search's tasks. */
describe('searching tasks by name', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('finds tasks whose name contains the text, any case, only on people the caller sees', async () => {
    const { account, agentA, agentB, personId } = await buildAgentsWithPerson(server);
    const key = account.owner.key;
    const other = await buildPerson(server, key, { assignedUserId: agentB.id });
    const word = unique('Loft');
    const ids = async (as: string, q: string, more = '') => {
      const res = await server.get(as, `/v1/tasks?q=${encodeURIComponent(q)}&sort=id${more}`);
      assert.equal(res.status, 200, res.text);
      return res.body.tasks.map((t: { id: number }) => t.id);
    };
    const mine = await buildTask(server, key, personId, { name: `Call about the ${word}` });
    const theirs = await buildTask(server, key, other.id, {
      name: `${word.toUpperCase()} viewing`,
    });
    const done = await buildTask(server, key, personId, {
      name: `Sent the ${word} brochure`,
      isCompleted: true,
    });
    await buildTask(server, key, personId, { name: '100% sure_thing' });

    assert.deepEqual(await ids(key, word.toLowerCase()), [mine.id, theirs.id, done.id]);
    assert.deepEqual(await ids(key, ` ${word} `, '&isCompleted=false'), [mine.id, theirs.id]);
    // An Agent finds only the tasks of people she may see.
    assert.deepEqual(await ids(agentA.key, word), [mine.id, done.id]);
    assert.deepEqual(await ids(agentB.key, word), [theirs.id]);
    // % and _ are letters to look for, not wildcards.
    assert.equal((await ids(key, '0% s')).length, 1);
    assert.deepEqual(await ids(key, 'o_t'), []); // a wildcard would find "about"
    const long = await server.get(key, `/v1/tasks?q=${'x'.repeat(201)}`);
    assert.equal(long.status, 400, long.text);
    assert.match(long.body.errorMessage, /q/);
  });
});
