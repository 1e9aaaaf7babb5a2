import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { outboxOf } from '../support/outbox.js';

describe('timeframes: GET /v1/timeframes and people.timeframeId', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('lists the timeframes in the list envelope, to every role', async () => {
    const account = await server.newAccount();
    const lender = await account.addUser('Lender');
    const res = await server.get(lender.key, '/v1/timeframes');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body._metadata.collection, 'timeframes');
    assert.equal(res.body._metadata.total, 5);
    assert.deepEqual(res.body.timeframes[0], { id: 1, timeframe: '0-3 Months' });
    assert.ok(res.body.timeframes.every((t: { timeframe: string }) => t.timeframe.length > 0));
    const page = await server.get(lender.key, '/v1/timeframes?limit=2&offset=2');
    assert.deepEqual(
      page.body.timeframes.map((t: { id: number }) => t.id),
      [3, 4],
    );
    const byId = await server.get(lender.key, '/v1/timeframes?id=2,5');
    assert.equal(byId.body._metadata.total, 2);
    assert.equal((await server.get(lender.key, '/v1/timeframes?limit=x')).status, 400);
  });

  it('people carry timeframeId: set on create and update, cleared with null, filtered, validated', async () => {
    const { owner, accountId } = await server.newAccount();
    const created = await server.post(owner.key, '/v1/people', { firstName: 'T', timeframeId: 2 });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.timeframeId, 2);
    const id = created.body.id;
    const plain = await server.post(owner.key, '/v1/people', { firstName: 'U' });
    assert.equal(plain.body.timeframeId, null);

    const got = await server.get(owner.key, `/v1/people/${id}`);
    assert.equal(got.body.timeframeId, 2);
    const list = await server.get(owner.key, '/v1/people?timeframeId=2');
    assert.deepEqual(
      list.body.people.map((p: { id: number; timeframeId: number }) => [p.id, p.timeframeId]),
      [[id, 2]],
    );
    const picked = await server.get(owner.key, `/v1/people/${id}?fields=timeframeId`);
    assert.deepEqual(picked.body, { id, timeframeId: 2 });

    const outbox = await outboxOf(server, accountId);
    const moved = await server.put(owner.key, `/v1/people/${id}`, { timeframeId: '4' });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.timeframeId, 4);
    const events = await outbox.take();
    assert.deepEqual(
      events.map((e) => [e.event, e.resourceIds]),
      [['peopleUpdated', [id]]],
    );
    const cleared = await server.put(owner.key, `/v1/people/${id}`, { timeframeId: null });
    assert.equal(cleared.body.timeframeId, null);

    const bad = await server.put(owner.key, `/v1/people/${id}`, { timeframeId: 9 });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.errorMessage, /timeframeId/);
    assert.equal((await server.post(owner.key, '/v1/people', { timeframeId: 0 })).status, 400);
    assert.equal((await server.get(owner.key, '/v1/people?timeframeId=x')).status, 400);
  });
});
