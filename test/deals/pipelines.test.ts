import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/server.js';
import { outboxOf } from '../support/outbox.js';

type StageOut = {
  id: number;
  name: string;
  description: string;
  orderWeight: number;
  color: string;
  closedStage: boolean;
  outcome: string | null;
};

describe('pipelines API', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  /** An account without the default pipeline (removed in the database: no webhook events). */
  const blankAccount = async () => {
    const account = await server.newAccount();
    const { db } = server.ctx;
    await db.deleteFrom('pipeline_stages').where('account_id', '=', account.accountId).execute();
    await db.deleteFrom('pipelines').where('account_id', '=', account.accountId).execute();
    return account;
  };

  const buyers = {
    name: 'Buyers',
    description: 'Buyer side',
    stages: [
      { name: 'Showing', color: '#00f' },
      { name: 'Offer', description: 'Offer made' },
      { name: 'Closed', closedStage: true },
    ],
  };

  it('starts a new account with a Sales pipeline whose Won and Lost stages are closed', async () => {
    const account = await server.newAccount();
    const res = await server.get(account.owner.key, '/v1/pipelines');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.pipelines.map((p: { name: string; stages: StageOut[] }) => [
        p.name,
        p.stages.map((s) => [s.name, s.closedStage, s.outcome]),
      ]),
      [
        [
          'Sales',
          [
            ['New', false, null],
            ['Showing', false, null],
            ['Offer', false, null],
            ['Under contract', false, null],
            ['Won', true, 'won'],
            ['Lost', true, 'lost'],
          ],
        ],
      ],
    );
    // Any stage can be made the one where deals are won (or lost); it is then closed.
    const [sales] = res.body.pipelines;
    const offer = sales.stages.find((s: StageOut) => s.name === 'Offer');
    const put = await server.put(account.owner.key, `/v1/pipelines/${sales.id}`, {
      stages: [{ id: offer.id, outcome: 'lost' }],
    });
    assert.equal(put.status, 200, put.text);
    const changed = put.body.stages.find((s: StageOut) => s.id === offer.id);
    assert.deepEqual([changed.closedStage, changed.outcome], [true, 'lost']);
    const bad = await server.put(account.owner.key, `/v1/pipelines/${sales.id}`, {
      stages: [{ id: offer.id, outcome: 'maybe' }],
    });
    assert.equal(bad.status, 400, bad.text);
  });

  it('creates a pipeline with its stages (Owner) and fires pipelineCreated + pipelineStageCreated', async () => {
    const account = await blankAccount();
    const outbox = await outboxOf(server, account.accountId);
    const res = await server.post(account.owner.key, '/v1/pipelines', buyers);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, 'Buyers');
    assert.equal(res.body.description, 'Buyer side');
    assert.equal(res.body.orderWeight, 10);
    assert.deepEqual(
      res.body.stages.map((s: StageOut) => [
        s.name,
        s.orderWeight,
        s.color,
        s.closedStage,
        s.description,
      ]),
      [
        ['Showing', 10, '#00f', false, ''],
        ['Offer', 20, '', false, 'Offer made'],
        ['Closed', 30, '', true, ''],
      ],
    );
    assert.deepEqual(await outbox.take(), [
      { event: 'pipelineCreated', resourceIds: [res.body.id], data: null },
      {
        event: 'pipelineStageCreated',
        resourceIds: [res.body.id],
        data: { stageIds: res.body.stages.map((s: StageOut) => s.id) },
      },
    ]);
    const got = await server.get(account.owner.key, `/v1/pipelines/${res.body.id}`);
    assert.deepEqual(got.body, res.body);
  });

  it('lets only the Owner change pipelines; Admin gets 403, everyone reads', async () => {
    const account = await blankAccount();
    const admin = await account.addUser('Admin');
    const agent = await account.addUser('Agent');
    const outbox = await outboxOf(server, account.accountId);
    const denied = await server.post(admin.key, '/v1/pipelines', buyers);
    assert.equal(denied.status, 403);
    assert.match(denied.body.errorMessage, /Owner/);
    const created = await server.post(account.owner.key, '/v1/pipelines', buyers);
    await outbox.take();
    assert.equal(
      (await server.put(admin.key, `/v1/pipelines/${created.body.id}`, { name: 'Renamed' })).status,
      403,
    );
    assert.equal((await server.del(admin.key, `/v1/pipelines/${created.body.id}`)).status, 403);
    assert.equal(
      (
        await server.del(
          admin.key,
          `/v1/pipelines/${created.body.id}/stages/${created.body.stages[0].id}`,
        )
      ).status,
      403,
    );
    assert.equal(
      (await server.put(agent.key, `/v1/pipelines/${created.body.id}`, { name: 'Renamed' })).status,
      403,
    );
    assert.deepEqual(await outbox.take(), []);
    assert.equal(
      (await server.get(admin.key, `/v1/pipelines/${created.body.id}`)).body.name,
      'Buyers',
    );
    assert.equal((await server.get(agent.key, '/v1/pipelines')).body.pipelines.length, 1);
  });

  it('PUT updates stages with id, creates stages without, leaves the others, and reports each change once', async () => {
    const account = await blankAccount();
    const created = await server.post(account.owner.key, '/v1/pipelines', buyers);
    const [showing, offer, closed] = created.body.stages as StageOut[];
    const outbox = await outboxOf(server, account.accountId);
    const res = await server.put(account.owner.key, `/v1/pipelines/${created.body.id}`, {
      name: 'Buyer deals',
      stages: [
        { id: offer.id, name: 'Offer Made', color: 'red' },
        { name: 'Inspection', orderWeight: 30 },
        { name: 'Lead In', orderWeight: 0 },
      ],
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'Buyer deals');
    assert.deepEqual(
      res.body.stages.map((s: StageOut) => [s.name, s.orderWeight]),
      [
        ['Lead In', 10],
        ['Showing', 20],
        ['Offer Made', 30],
        ['Inspection', 40],
        ['Closed', 50],
      ],
    );
    const inspection = res.body.stages.find((s: StageOut) => s.name === 'Inspection');
    const leadIn = res.body.stages.find((s: StageOut) => s.name === 'Lead In');
    assert.equal(res.body.stages.find((s: StageOut) => s.id === closed.id).closedStage, true);
    assert.deepEqual(await outbox.take(), [
      { event: 'pipelineUpdated', resourceIds: [created.body.id], data: null },
      {
        event: 'pipelineStageCreated',
        resourceIds: [created.body.id],
        data: { stageIds: [leadIn.id, inspection.id] },
      },
      {
        event: 'pipelineStageUpdated',
        resourceIds: [created.body.id],
        data: { stageIds: [showing.id, offer.id, closed.id] },
      },
    ]);
    // Moving one stage renumbers only the stages it passes; an unchanged body fires nothing.
    const move = await server.put(account.owner.key, `/v1/pipelines/${created.body.id}`, {
      stages: [{ id: closed.id, orderWeight: 20 }],
    });
    assert.deepEqual(
      move.body.stages.map((s: StageOut) => s.name),
      ['Lead In', 'Closed', 'Showing', 'Offer Made', 'Inspection'],
    );
    assert.deepEqual(await outbox.take(), [
      {
        event: 'pipelineStageUpdated',
        resourceIds: [created.body.id],
        data: { stageIds: [closed.id, showing.id, offer.id, inspection.id] },
      },
    ]);
    const same = await server.put(account.owner.key, `/v1/pipelines/${created.body.id}`, {
      name: 'Buyer deals',
      stages: [{ id: offer.id, name: 'Offer Made' }],
    });
    assert.equal(same.status, 200);
    assert.deepEqual(await outbox.take(), []);
  });

  it('orders pipelines by the same weight rule and fires pipelineUpdated for those that move', async () => {
    const account = await blankAccount();
    const first = await server.post(account.owner.key, '/v1/pipelines', { name: 'First' });
    const second = await server.post(account.owner.key, '/v1/pipelines', { name: 'Second' });
    assert.equal(second.body.orderWeight, 20);
    assert.deepEqual(second.body.stages, []);
    const outbox = await outboxOf(server, account.accountId);
    const front = await server.post(account.owner.key, '/v1/pipelines', {
      name: 'Front',
      orderWeight: 10,
    });
    assert.equal(front.body.orderWeight, 10);
    assert.deepEqual(await outbox.take(), [
      { event: 'pipelineCreated', resourceIds: [front.body.id], data: null },
      { event: 'pipelineUpdated', resourceIds: [first.body.id], data: null },
      { event: 'pipelineUpdated', resourceIds: [second.body.id], data: null },
    ]);
    const list = await server.get(account.owner.key, '/v1/pipelines');
    assert.equal(list.body._metadata.collection, 'pipelines');
    assert.deepEqual(
      list.body.pipelines.map((p: { name: string }) => p.name),
      ['Front', 'First', 'Second'],
    );
    const filtered = await server.get(account.owner.key, '/v1/pipelines?name=sec');
    assert.deepEqual(
      filtered.body.pipelines.map((p: { name: string }) => p.name),
      ['Second'],
    );
    assert.equal(filtered.body._metadata.total, 1);
    const byId = await server.get(
      account.owner.key,
      `/v1/pipelines?id=${first.body.id},${front.body.id}&sort=id`,
    );
    assert.deepEqual(
      byId.body.pipelines.map((p: { name: string }) => p.name),
      ['First', 'Front'],
    );
  });

  it('rejects bad stage objects with 400 and changes nothing', async () => {
    const account = await blankAccount();
    const a = await server.post(account.owner.key, '/v1/pipelines', buyers);
    const b = await server.post(account.owner.key, '/v1/pipelines', {
      name: 'Sellers',
      stages: [{ name: 'Listing' }],
    });
    const outbox = await outboxOf(server, account.accountId);
    const foreign = await server.put(account.owner.key, `/v1/pipelines/${a.body.id}`, {
      name: 'X',
      stages: [{ id: b.body.stages[0].id, name: 'Stolen' }],
    });
    assert.equal(foreign.status, 400);
    assert.match(foreign.body.errorMessage, /has no stage/);
    const nameless = await server.put(account.owner.key, `/v1/pipelines/${a.body.id}`, {
      stages: [{ color: 'blue' }],
    });
    assert.equal(nameless.status, 400);
    assert.match(nameless.body.errorMessage, /stages\[0\]\.name is required/);
    const withId = await server.post(account.owner.key, '/v1/pipelines', {
      name: 'Y',
      stages: [{ id: 5, name: 'Z' }],
    });
    assert.equal(withId.status, 400);
    const unknownField = await server.post(account.owner.key, '/v1/pipelines', {
      name: 'Y',
      stages: [{ name: 'Z', weight: 3 }],
    });
    assert.equal(unknownField.status, 400);
    assert.match(unknownField.body.errorMessage, /weight/);
    assert.equal((await server.post(account.owner.key, '/v1/pipelines', {})).status, 400);
    assert.deepEqual(await outbox.take(), []);
    assert.equal(
      (await server.get(account.owner.key, `/v1/pipelines/${a.body.id}`)).body.name,
      'Buyers',
    );
  });

  it('deletes a stage, then the pipeline with its stages, firing the stage and pipeline deletions', async () => {
    const account = await blankAccount();
    const created = await server.post(account.owner.key, '/v1/pipelines', buyers);
    const ids = created.body.stages.map((s: StageOut) => s.id);
    const outbox = await outboxOf(server, account.accountId);
    const one = await server.del(
      account.owner.key,
      `/v1/pipelines/${created.body.id}/stages/${ids[1]}`,
    );
    assert.equal(one.status, 204, one.text);
    assert.deepEqual(
      (await server.get(account.owner.key, `/v1/pipelines/${created.body.id}`)).body.stages.map(
        (s: StageOut) => s.id,
      ),
      [ids[0], ids[2]],
    );
    const res = await server.del(account.owner.key, `/v1/pipelines/${created.body.id}`);
    assert.equal(res.status, 204);
    assert.equal(
      (await server.get(account.owner.key, `/v1/pipelines/${created.body.id}`)).status,
      404,
    );
    assert.deepEqual(await outbox.take(), [
      {
        event: 'pipelineStageDeleted',
        resourceIds: [created.body.id],
        data: { stageIds: [ids[1]] },
      },
      {
        event: 'pipelineStageDeleted',
        resourceIds: [created.body.id],
        data: { stageIds: [ids[0], ids[2]] },
      },
      { event: 'pipelineDeleted', resourceIds: [created.body.id], data: null },
    ]);
    const rows = await server.ctx.db
      .selectFrom('pipeline_stages')
      .select('id')
      .where('account_id', '=', account.accountId)
      .execute();
    assert.equal(rows.length, 0);
  });

  it('keeps accounts apart', async () => {
    const a = await blankAccount();
    const b = await blankAccount();
    const created = await server.post(a.owner.key, '/v1/pipelines', buyers);
    assert.equal((await server.get(b.owner.key, `/v1/pipelines/${created.body.id}`)).status, 404);
    assert.equal(
      (await server.put(b.owner.key, `/v1/pipelines/${created.body.id}`, { name: 'Mine' })).status,
      404,
    );
    assert.equal((await server.del(b.owner.key, `/v1/pipelines/${created.body.id}`)).status, 404);
    assert.equal((await server.get(b.owner.key, '/v1/pipelines')).body._metadata.total, 0);
  });
});
