import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, unique, type TestServer } from '../support/server.js';

/** `q` on GET /v1/deals: the global search's deals. */
describe('searching deals by name', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('finds deals whose name contains the text, any case, only among those the caller sees', async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    const agent = await account.addUser('Agent');
    const pipeline = await server.post(key, '/v1/pipelines', {
      name: 'Buyers',
      stages: [{ name: 'Offer' }],
    });
    assert.equal(pipeline.status, 201, pipeline.text);
    const stageId = pipeline.body.stages[0].id as number;
    const word = unique('Garden');
    const deal = async (name: string, userIds: number[] = []) => {
      const res = await server.post(key, '/v1/deals', { name, stageId, userIds });
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    const lane = await deal(`12 ${word} Lane`, [agent.id]);
    const court = await deal(`${word.toUpperCase()} Court`);
    await deal('100% sure_thing');
    await deal('Harbour Road');

    const names = async (as: string, q: string) => {
      const res = await server.get(as, `/v1/deals?q=${encodeURIComponent(q)}&sort=id`);
      assert.equal(res.status, 200, res.text);
      return res.body.deals.map((d: { id: number }) => d.id);
    };
    assert.deepEqual(await names(key, word.toLowerCase()), [lane, court]);
    assert.deepEqual(await names(agent.key, word), [lane]);
    // % and _ are letters to look for, not wildcards.
    assert.equal((await names(key, '0% s')).length, 1);
    assert.deepEqual(await names(key, '%'), await names(key, '100%'));
    assert.deepEqual(await names(key, 'r_R'), []); // a wildcard would find "Harbour Road"
    const long = await server.get(key, `/v1/deals?q=${'x'.repeat(201)}`);
    assert.equal(long.status, 400, long.text);
  });
});
