import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestAccount, type TestServer } from '../support/server.js';
import { outboxOf } from '../support/outbox.js';
import { placeByWeight } from '../../src/contacts/stages/weights.js';

type StageOut = {
  id: number;
  name: string;
  orderWeight: number;
  isProtected: boolean;
  peopleCount: number;
};

describe('stage weights rule (pure)', () => {
  const ten = [1, 2, 3, 4].map((id) => ({ id, weight: id * 10 }));
  it('a new stage with no weight goes last', () => {
    assert.deepEqual(
      [...placeByWeight(ten, { id: 9, requested: undefined })],
      [
        [1, 10],
        [2, 20],
        [3, 30],
        [4, 40],
        [9, 50],
      ],
    );
  });
  it('moving down lands after the stage holding the requested weight; moving up before it', () => {
    assert.deepEqual(
      [...placeByWeight(ten, { id: 1, requested: 30, previous: 10 })],
      [
        [2, 10],
        [3, 20],
        [1, 30],
        [4, 40],
      ],
    );
    assert.deepEqual(
      [...placeByWeight(ten, { id: 4, requested: 20, previous: 40 })],
      [
        [1, 10],
        [4, 20],
        [2, 30],
        [3, 40],
      ],
    );
  });
  it('ties among unnormalised weights are broken by id and renumbered', () => {
    const tied = [
      { id: 5, weight: 7 },
      { id: 3, weight: 7 },
    ];
    assert.deepEqual(
      [...placeByWeight(tied, { id: 8, requested: 7 })],
      [
        [8, 10],
        [3, 20],
        [5, 30],
      ],
    );
  });
});

describe('stages API', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  async function stages(key: string): Promise<StageOut[]> {
    const res = await server.get(key, '/v1/stages?limit=100');
    assert.equal(res.status, 200, res.text);
    return res.body.stages;
  }
  const names = (list: StageOut[]) => list.map((s) => s.name);
  const byName = (list: StageOut[], name: string) => list.find((s) => s.name === name)!;

  it('lists the default stages by orderWeight with the stages envelope, sortable by name and id', async () => {
    const { owner } = await server.newAccount();
    const res = await server.get(owner.key, '/v1/stages?limit=100');
    assert.equal(res.body._metadata.collection, 'stages');
    assert.equal(res.body._metadata.total, 10);
    assert.deepEqual(
      res.body.stages.map((s: StageOut) => s.orderWeight),
      [10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
    );
    assert.equal(res.body.stages[0].name, 'Lead');
    assert.equal(res.body.stages[0].isProtected, true);
    assert.equal(byName(res.body.stages, 'Prospect').isProtected, false);
    const sorted = await server.get(owner.key, '/v1/stages?sort=name&limit=3');
    assert.deepEqual(names(sorted.body.stages), ['Active Client', 'Closed', 'Lead']);
    const next = await server.call(
      'GET',
      sorted.body._metadata.nextLink.replace('https://hearth.test', ''),
      { key: owner.key },
    );
    assert.deepEqual(names(next.body.stages), ['Nurture', 'Past Client', 'Prospect']);
    const desc = await server.get(owner.key, '/v1/stages?sort=-id&limit=1');
    assert.equal(desc.body.stages[0].name, 'Trash');
    const bad = await server.get(owner.key, '/v1/stages?sort=color');
    assert.equal(bad.status, 400);
  });

  it('counts the people in each stage that the caller can see', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    await server.post(account.owner.key, '/v1/people', { name: 'A One', stage: 'Prospect' });
    await server.post(account.owner.key, '/v1/people', {
      name: 'A Two',
      stage: 'Prospect',
      assignedUserId: agent.id,
    });
    assert.equal(byName(await stages(account.owner.key), 'Prospect').peopleCount, 2);
    assert.equal(byName(await stages(agent.key), 'Prospect').peopleCount, 1);
    const one = await server.get(
      account.owner.key,
      `/v1/stages/${byName(await stages(account.owner.key), 'Prospect').id}`,
    );
    assert.equal(one.body.peopleCount, 2);
  });

  describe('weight recalculation', () => {
    let account: TestAccount;
    it('creating at the end appends with the next weight and moves nobody', async () => {
      account = await server.newAccount();
      const outbox = await outboxOf(server, account.accountId);
      const res = await server.post(account.owner.key, '/v1/stages', {
        name: 'Last',
        orderWeight: 1000,
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.orderWeight, 110);
      assert.equal(res.body.isProtected, false);
      assert.equal(res.body.peopleCount, 0);
      assert.deepEqual(await outbox.take(), [
        { event: 'stageCreated', resourceIds: [res.body.id], data: null },
      ]);
      const noWeight = await server.post(account.owner.key, '/v1/stages', { name: 'Unweighted' });
      assert.equal(noWeight.body.orderWeight, 120);
      assert.deepEqual(await outbox.take(), [
        { event: 'stageCreated', resourceIds: [noWeight.body.id], data: null },
      ]);
    });

    it('creating at the front shifts every stage and fires stageUpdated for each', async () => {
      const account = await server.newAccount();
      const before = await stages(account.owner.key);
      const outbox = await outboxOf(server, account.accountId);
      const res = await server.post(account.owner.key, '/v1/stages', {
        name: 'First',
        orderWeight: 0,
      });
      assert.equal(res.body.orderWeight, 10);
      const after = await stages(account.owner.key);
      assert.deepEqual(names(after), ['First', ...names(before)]);
      assert.deepEqual(
        after.map((s) => s.orderWeight),
        after.map((_, i) => (i + 1) * 10),
      );
      assert.deepEqual(await outbox.take(), [
        { event: 'stageCreated', resourceIds: [res.body.id], data: null },
        ...before.map((s) => ({ event: 'stageUpdated', resourceIds: [s.id], data: null })),
      ]);
    });

    it('creating in the middle takes the requested weight and pushes the rest down', async () => {
      const account = await server.newAccount();
      const before = await stages(account.owner.key);
      const outbox = await outboxOf(server, account.accountId);
      const res = await server.post(account.owner.key, '/v1/stages', {
        name: 'Middle',
        orderWeight: 30,
      });
      assert.equal(res.body.orderWeight, 30);
      const after = await stages(account.owner.key);
      assert.deepEqual(names(after), ['Lead', 'Prospect', 'Middle', ...names(before).slice(2)]);
      assert.deepEqual(
        after.map((s) => s.orderWeight),
        after.map((_, i) => (i + 1) * 10),
      );
      assert.deepEqual(await outbox.take(), [
        { event: 'stageCreated', resourceIds: [res.body.id], data: null },
        ...before.slice(2).map((s) => ({ event: 'stageUpdated', resourceIds: [s.id], data: null })),
      ]);
      // A weight between two steps lands between those two stages.
      const between = await server.post(account.owner.key, '/v1/stages', {
        name: 'Between',
        orderWeight: 15,
      });
      assert.equal(between.body.orderWeight, 20);
      assert.deepEqual(names(await stages(account.owner.key)).slice(0, 4), [
        'Lead',
        'Between',
        'Prospect',
        'Middle',
      ]);
    });

    it('moving one stage down and up renumbers only the stages in between', async () => {
      const account = await server.newAccount();
      const before = await stages(account.owner.key);
      const prospect = byName(before, 'Prospect');
      const outbox = await outboxOf(server, account.accountId);
      const down = await server.put(account.owner.key, `/v1/stages/${prospect.id}`, {
        orderWeight: 50,
      });
      assert.equal(down.status, 200, down.text);
      assert.equal(down.body.orderWeight, 50);
      const mid = await stages(account.owner.key);
      assert.deepEqual(names(mid).slice(0, 6), [
        'Lead',
        'Active Client',
        'Under Contract',
        'Closed',
        'Prospect',
        'Past Client',
      ]);
      assert.deepEqual(await outbox.take(), [
        { event: 'stageUpdated', resourceIds: [prospect.id], data: null },
        ...['Active Client', 'Under Contract', 'Closed'].map((n) => ({
          event: 'stageUpdated',
          resourceIds: [byName(before, n).id],
          data: null,
        })),
      ]);
      const up = await server.put(account.owner.key, `/v1/stages/${prospect.id}`, {
        orderWeight: '20',
      });
      assert.equal(up.body.orderWeight, 20);
      assert.deepEqual(names(await stages(account.owner.key)), names(before));
      assert.equal((await outbox.take()).length, 4);
      // The same weight again changes nothing and fires nothing.
      const same = await server.put(account.owner.key, `/v1/stages/${prospect.id}`, {
        orderWeight: 20,
        name: 'Prospect',
      });
      assert.equal(same.status, 200);
      assert.deepEqual(await outbox.take(), []);
    });

    it('keeps weights distinct under concurrent creates', async () => {
      const account = await server.newAccount();
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          server.post(account.owner.key, '/v1/stages', {
            name: `Concurrent ${i}`,
            orderWeight: i % 2 === 0 ? 20 : 1000,
          }),
        ),
      );
      assert.ok(
        created.every((r) => r.status === 201),
        created.map((r) => r.text).join('\n'),
      );
      const after = await stages(account.owner.key);
      assert.equal(after.length, 22);
      assert.deepEqual(
        after.map((s) => s.orderWeight),
        after.map((_, i) => (i + 1) * 10),
      );
      assert.equal(after[0].name, 'Lead');
      assert.equal(after[after.length - 1].name.startsWith('Concurrent'), true);
      const stored = await server.ctx.db
        .selectFrom('stages')
        .select('order_weight')
        .where('account_id', '=', account.accountId)
        .execute();
      assert.equal(new Set(stored.map((s) => s.order_weight)).size, 22);
    });
  });

  it('protects built-in stages from renaming and deletion, but lets them move', async () => {
    const account = await server.newAccount();
    const lead = byName(await stages(account.owner.key), 'Lead');
    const outbox = await outboxOf(server, account.accountId);
    const rename = await server.put(account.owner.key, `/v1/stages/${lead.id}`, {
      name: 'New Lead',
    });
    assert.equal(rename.status, 400);
    assert.match(rename.body.errorMessage, /protected.*name cannot be changed/);
    const del = await server.del(account.owner.key, `/v1/stages/${lead.id}`);
    assert.equal(del.status, 400);
    assert.match(del.body.errorMessage, /protected and cannot be deleted/);
    assert.deepEqual(await outbox.take(), []);
    const move = await server.put(account.owner.key, `/v1/stages/${lead.id}`, {
      orderWeight: 30,
      name: 'Lead',
    });
    assert.equal(move.status, 200, move.text);
    assert.equal(move.body.orderWeight, 30);
    assert.equal(move.body.name, 'Lead');
  });

  it('validates names, fields and roles', async () => {
    const account = await server.newAccount();
    const admin = await account.addUser('Admin');
    const agent = await account.addUser('Agent');
    const dup = await server.post(account.owner.key, '/v1/stages', { name: 'Prospect' });
    assert.equal(dup.status, 409);
    assert.match(dup.body.errorMessage, /already exists/);
    const unknown = await server.post(account.owner.key, '/v1/stages', { name: 'X', color: 'red' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.errorMessage, /color/);
    assert.equal((await server.post(account.owner.key, '/v1/stages', { name: '' })).status, 400);
    assert.equal((await server.post(agent.key, '/v1/stages', { name: 'Agent stage' })).status, 403);
    const prospect = byName(await stages(agent.key), 'Prospect');
    assert.equal(
      (await server.put(agent.key, `/v1/stages/${prospect.id}`, { name: 'Nope' })).status,
      403,
    );
    assert.equal((await server.del(agent.key, `/v1/stages/${prospect.id}`)).status, 403);
    const byAdmin = await server.post(admin.key, '/v1/stages', {
      name: 'Admin stage',
      system: 'Tester',
    });
    assert.equal(byAdmin.status, 201, byAdmin.text);
    const renamed = await server.put(admin.key, `/v1/stages/${prospect.id}`, {
      name: 'Hot Prospect',
    });
    assert.equal(renamed.body.name, 'Hot Prospect');
    const person = await server.post(account.owner.key, '/v1/people', {
      name: 'Renamed Stage',
      stageId: prospect.id,
    });
    assert.equal(person.body.stage, 'Hot Prospect');
  });

  it('isolates accounts: another account’s stage is 404', async () => {
    const a = await server.newAccount();
    const b = await server.newAccount();
    const stageOfA = byName(await stages(a.owner.key), 'Prospect');
    assert.equal((await server.get(b.owner.key, `/v1/stages/${stageOfA.id}`)).status, 404);
    assert.equal(
      (await server.put(b.owner.key, `/v1/stages/${stageOfA.id}`, { name: 'Hijack' })).status,
      404,
    );
    assert.equal((await server.del(b.owner.key, `/v1/stages/${stageOfA.id}`)).status, 404);
    const stageOfB = byName(await stages(b.owner.key), 'Closed');
    const res = await server.call(
      'DELETE',
      `/v1/stages/${byName(await stages(a.owner.key), 'Closed').id}?assignStageId=${stageOfB.id}`,
      { key: a.owner.key },
    );
    assert.equal(res.status, 400);
    assert.match(res.body.errorMessage, /assignStageId/);
  });

  describe('deletion with reassignment', () => {
    it('refuses to delete a stage with people unless assignStageId is given', async () => {
      const account = await server.newAccount();
      const list = await stages(account.owner.key);
      await server.post(account.owner.key, '/v1/people', { name: 'Stuck', stage: 'Nurture' });
      const res = await server.del(account.owner.key, `/v1/stages/${byName(list, 'Nurture').id}`);
      assert.equal(res.status, 400);
      assert.match(res.body.errorMessage, /has 1 people; give assignStageId/);
      const same = await server.del(
        account.owner.key,
        `/v1/stages/${byName(list, 'Nurture').id}?assignStageId=${byName(list, 'Nurture').id}`,
      );
      assert.equal(same.status, 400);
    });

    it('moves the people (query form) and fires peopleUpdated + peopleStageUpdated, then stageDeleted', async () => {
      const account = await server.newAccount();
      const list = await stages(account.owner.key);
      const nurture = byName(list, 'Nurture');
      const sphere = byName(list, 'Sphere');
      const p1 = await server.post(account.owner.key, '/v1/people', {
        name: 'One',
        stage: 'Nurture',
      });
      const p2 = await server.post(account.owner.key, '/v1/people', {
        name: 'Two',
        stageId: nurture.id,
      });
      const other = await server.post(account.owner.key, '/v1/people', {
        name: 'Other',
        stage: 'Closed',
      });
      const outbox = await outboxOf(server, account.accountId);
      const res = await server.del(
        account.owner.key,
        `/v1/stages/${nurture.id}?assignStageId=${sphere.id}`,
      );
      assert.equal(res.status, 204, res.text);
      assert.deepEqual(await outbox.take(), [
        { event: 'peopleUpdated', resourceIds: [p1.body.id, p2.body.id], data: null },
        {
          event: 'peopleStageUpdated',
          resourceIds: [p1.body.id, p2.body.id],
          data: { stage: 'Sphere' },
        },
        { event: 'stageDeleted', resourceIds: [nurture.id], data: null },
      ]);
      const moved = await server.get(account.owner.key, `/v1/people/${p1.body.id}`);
      assert.equal(moved.body.stage, 'Sphere');
      assert.equal(moved.body.stageId, sphere.id);
      assert.equal(
        (await server.get(account.owner.key, `/v1/people/${other.body.id}`)).body.stage,
        'Closed',
      );
      assert.equal((await server.get(account.owner.key, `/v1/stages/${nurture.id}`)).status, 404);
      assert.equal(byName(await stages(account.owner.key), 'Sphere').peopleCount, 2);
    });

    it('accepts assignStageId in the body, and deletes an empty stage without it', async () => {
      const account = await server.newAccount();
      const list = await stages(account.owner.key);
      const p = await server.post(account.owner.key, '/v1/people', {
        name: 'Body',
        stage: 'Unresponsive',
      });
      const res = await server.call('DELETE', `/v1/stages/${byName(list, 'Unresponsive').id}`, {
        key: account.owner.key,
        body: { assignStageId: String(byName(list, 'Lead').id) },
      });
      assert.equal(res.status, 204, res.text);
      assert.equal(
        (await server.get(account.owner.key, `/v1/people/${p.body.id}`)).body.stage,
        'Lead',
      );
      const outbox = await outboxOf(server, account.accountId);
      await outbox.take();
      const empty = await server.del(account.owner.key, `/v1/stages/${byName(list, 'Sphere').id}`);
      assert.equal(empty.status, 204);
      assert.deepEqual(await outbox.take(), [
        { event: 'stageDeleted', resourceIds: [byName(list, 'Sphere').id], data: null },
      ]);
    });
  });

  describe('person stage (issue part 5)', () => {
    it('keeps stage and stageId consistent, rejects unknown stages, fires peopleStageUpdated with data.stage only', async () => {
      const account = await server.newAccount();
      const list = await stages(account.owner.key);
      const p = await server.post(account.owner.key, '/v1/people', { name: 'Mover' });
      const outbox = await outboxOf(server, account.accountId);
      const byNameRes = await server.put(account.owner.key, `/v1/people/${p.body.id}`, {
        stage: 'Closed',
      });
      assert.equal(byNameRes.body.stage, 'Closed');
      assert.equal(byNameRes.body.stageId, byName(list, 'Closed').id);
      const byIdRes = await server.put(account.owner.key, `/v1/people/${p.body.id}`, {
        stageId: byName(list, 'Sphere').id,
      });
      assert.equal(byIdRes.body.stage, 'Sphere');
      const unknownName = await server.put(account.owner.key, `/v1/people/${p.body.id}`, {
        stage: 'No Such Stage',
      });
      assert.equal(unknownName.status, 400);
      const unknownId = await server.put(account.owner.key, `/v1/people/${p.body.id}`, {
        stageId: 999999,
      });
      assert.equal(unknownId.status, 400);
      // Rule 6: a person's stage change fires no stage events.
      assert.deepEqual(await outbox.take(), [
        { event: 'peopleUpdated', resourceIds: [p.body.id], data: null },
        { event: 'peopleStageUpdated', resourceIds: [p.body.id], data: { stage: 'Closed' } },
        { event: 'peopleUpdated', resourceIds: [p.body.id], data: null },
        { event: 'peopleStageUpdated', resourceIds: [p.body.id], data: { stage: 'Sphere' } },
      ]);
    });
  });
});
