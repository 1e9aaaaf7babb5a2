import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';

interface OutboxEvent {
  event: string;
  resourceIds: number[];
  data: Record<string, unknown> | null;
}

describe('outbox rows for people changes', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let seen = 0;

  /** Outbox rows of this account written since the previous call. */
  async function newEvents(): Promise<OutboxEvent[]> {
    const rows = await server.ctx.db
      .selectFrom('outbox')
      .select(['id', 'event', 'resource_ids', 'data', 'dispatched_at'])
      .where('account_id', '=', account.accountId)
      .where('id', '>', seen)
      .orderBy('id')
      .execute();
    if (rows.length) seen = rows[rows.length - 1].id;
    return rows.map((r) => ({
      event: r.event,
      resourceIds: JSON.parse(r.resource_ids),
      data: r.data === null ? null : JSON.parse(r.data),
    }));
  }

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
    await newEvents();
  });
  after(async () => server.close());

  it('POST emits peopleCreated, and peopleTagsCreated with the tags', async () => {
    const res = await server.post(key, '/v1/people', { firstName: 'Out', tags: ['Buyer', 'VIP'] });
    assert.equal(res.status, 201);
    assert.deepEqual(await newEvents(), [
      { event: 'peopleCreated', resourceIds: [res.body.id], data: null },
      { event: 'peopleTagsCreated', resourceIds: [res.body.id], data: { tags: ['Buyer', 'VIP'] } },
    ]);
  });

  it('POST without tags emits only peopleCreated', async () => {
    const res = await server.post(key, '/v1/people', { firstName: 'Plain' });
    assert.deepEqual(await newEvents(), [
      { event: 'peopleCreated', resourceIds: [res.body.id], data: null },
    ]);
  });

  describe('updates', () => {
    let id: number;
    before(async () => {
      const res = await server.post(key, '/v1/people', {
        firstName: 'Up',
        lastName: 'Date',
        emails: ['up@example.com'],
        phones: ['555-010-1111'],
        tags: ['a'],
        price: 100,
        addresses: [{ street: '1 Main St', city: 'Town' }],
        background: 'bg',
        source: 'site.example',
        sourceUrl: 'https://site.example/1',
      });
      id = res.body.id;
      await newEvents();
    });

    it('a no-op PUT emits nothing and keeps `updated`', async () => {
      const before = await server.get(key, `/v1/people/${id}`);
      const same = {
        firstName: 'Up',
        lastName: 'Date',
        emails: ['up@example.com'],
        phones: ['555-010-1111'],
        tags: ['a'],
        price: 100,
        addresses: [{ street: '1 Main St', city: 'Town' }],
        background: 'bg',
        source: 'www.site.example',
        stage: 'Lead',
        contacted: false,
      };
      const res = await server.put(key, `/v1/people/${id}`, same);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(await newEvents(), []);
      assert.equal(res.body.updated, before.body.updated);
      assert.deepEqual((await server.put(key, `/v1/people/${id}`, {})).status, 200);
      assert.deepEqual(await newEvents(), []);
    });

    it('a change of the system key alone is no change', async () => {
      await server.put(key, `/v1/people/${id}`, { system: 'Crm' });
      assert.deepEqual(await newEvents(), []);
    });

    const watched: [string, Record<string, unknown>][] = [
      ['name', { name: 'Upd Ated' }],
      ['firstName', { firstName: 'Upp' }],
      ['lastName', { lastName: 'Dated' }],
      ['emails', { emails: ['up2@example.com'] }],
      ['phones', { phones: ['555-010-2222'] }],
      ['addresses', { addresses: [{ street: '2 Main St' }] }],
      ['price', { price: 200 }],
      ['background', { background: 'new bg' }],
      ['contacted', { contacted: true }],
      ['source', { source: 'other.example' }],
      ['sourceUrl', { sourceUrl: 'https://other.example/2' }],
    ];
    for (const [field, body] of watched) {
      it(`a change of ${field} emits exactly one peopleUpdated`, async () => {
        const res = await server.put(key, `/v1/people/${id}`, body);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(await newEvents(), [
          { event: 'peopleUpdated', resourceIds: [id], data: null },
        ]);
        await server.put(key, `/v1/people/${id}`, body);
        assert.deepEqual(await newEvents(), [], 'repeating it is a no-op');
      });
    }

    it('assignedUserId / assignedTo and the lender fields emit peopleUpdated', async () => {
      const agent = await account.addUser('Agent');
      const lender = await account.addUser('Lender');
      for (const body of [
        { assignedUserId: agent.id },
        { assignedTo: account.owner.name },
        { assignedLenderId: lender.id },
        { assignedLenderName: '' },
      ]) {
        await server.put(key, `/v1/people/${id}`, body);
        assert.deepEqual(
          (await newEvents()).map((e) => e.event),
          ['peopleUpdated'],
          JSON.stringify(body),
        );
      }
      await server.put(key, `/v1/people/${id}`, { assignedTo: account.owner.name });
      assert.deepEqual(await newEvents(), []);
    });

    it('a stage change emits peopleUpdated and peopleStageUpdated with the stage name', async () => {
      await server.put(key, `/v1/people/${id}`, { stage: 'Prospect' });
      assert.deepEqual(await newEvents(), [
        { event: 'peopleUpdated', resourceIds: [id], data: null },
        { event: 'peopleStageUpdated', resourceIds: [id], data: { stage: 'Prospect' } },
      ]);
      const stages = await server.ctx.db
        .selectFrom('stages')
        .select(['id', 'name'])
        .where('account_id', '=', account.accountId)
        .where('name', '=', 'Past Client')
        .executeTakeFirstOrThrow();
      await server.put(key, `/v1/people/${id}`, { stageId: stages.id });
      assert.deepEqual((await newEvents())[1], {
        event: 'peopleStageUpdated',
        resourceIds: [id],
        data: { stage: 'Past Client' },
      });
      await server.put(key, `/v1/people/${id}`, { stage: 'Past Client' });
      assert.deepEqual(await newEvents(), []);
    });

    it('adding tags emits peopleTagsCreated with only the added ones; removing emits only peopleUpdated', async () => {
      await server.put(key, `/v1/people/${id}`, { tags: ['a', 'b', 'c'] });
      assert.deepEqual(await newEvents(), [
        { event: 'peopleUpdated', resourceIds: [id], data: null },
        { event: 'peopleTagsCreated', resourceIds: [id], data: { tags: ['b', 'c'] } },
      ]);
      await server.put(key, `/v1/people/${id}`, { tags: ['a'] });
      assert.deepEqual(await newEvents(), [
        { event: 'peopleUpdated', resourceIds: [id], data: null },
      ]);
    });

    it('a tag removed and added back fires peopleTagsCreated again', async () => {
      await server.put(key, `/v1/people/${id}`, { tags: ['a', 'b'] });
      assert.deepEqual((await newEvents())[1]?.data, { tags: ['b'] });
      await server.put(key, `/v1/people/${id}`, { tags: ['a'] });
      await newEvents();
      await server.put(key, `/v1/people/${id}?mergeTags=true`, { tags: ['b'] });
      assert.deepEqual(await newEvents(), [
        { event: 'peopleUpdated', resourceIds: [id], data: null },
        { event: 'peopleTagsCreated', resourceIds: [id], data: { tags: ['b'] } },
      ]);
      await server.put(key, `/v1/people/${id}?mergeTags=true`, { tags: ['A', 'b'] });
      assert.deepEqual(await newEvents(), [], 'merging tags already there (any case) is a no-op');
    });

    it('a custom field value change emits peopleUpdated; the definition events are separate', async () => {
      const def = await server.post(key, '/v1/customFields', { label: 'Budget', type: 'number' });
      assert.deepEqual(await newEvents(), [
        { event: 'customFieldsCreated', resourceIds: [def.body.id], data: null },
      ]);
      await server.put(key, `/v1/people/${id}`, { customBudget: 5 });
      assert.deepEqual(await newEvents(), [
        { event: 'peopleUpdated', resourceIds: [id], data: null },
      ]);
      await server.put(key, `/v1/people/${id}`, { customBudget: '5' });
      assert.deepEqual(await newEvents(), []);
      await server.put(key, `/v1/people/${id}`, { customBudget: null });
      assert.deepEqual(await newEvents(), [
        { event: 'peopleUpdated', resourceIds: [id], data: null },
      ]);
      await server.put(key, `/v1/customFields/${def.body.id}`, { label: 'Budget USD' });
      assert.deepEqual(await newEvents(), [
        { event: 'customFieldsUpdated', resourceIds: [def.body.id], data: null },
      ]);
      await server.put(key, `/v1/customFields/${def.body.id}`, { label: 'Budget USD' });
      assert.deepEqual(await newEvents(), []);
      await server.del(key, `/v1/customFields/${def.body.id}`);
      assert.deepEqual(await newEvents(), [
        { event: 'customFieldsDeleted', resourceIds: [def.body.id], data: null },
      ]);
    });

    it('a collaborator change emits peopleUpdated', async () => {
      const agent = await account.addUser('Agent');
      await server.put(key, `/v1/people/${id}`, { collaborators: [agent.id] });
      assert.deepEqual(
        (await newEvents()).map((e) => e.event),
        ['peopleUpdated'],
      );
    });

    it('a refused update (400) emits nothing', async () => {
      const res = await server.put(key, `/v1/people/${id}`, {
        firstName: 'Changed',
        stage: 'No Such Stage',
      });
      assert.equal(res.status, 400);
      assert.deepEqual(await newEvents(), []);
      assert.notEqual((await server.get(key, `/v1/people/${id}`)).body.firstName, 'Changed');
    });
  });

  it('deduplicate=true merging into an existing person emits peopleUpdated, not peopleCreated', async () => {
    const first = await server.post(key, '/v1/people', {
      firstName: 'Dedup',
      emails: ['dedup@example.com'],
    });
    await newEvents();
    const again = await server.post(key, '/v1/people?deduplicate=true', {
      emails: ['DEDUP@example.com'],
      tags: ['new'],
    });
    assert.equal(again.status, 200);
    assert.deepEqual(await newEvents(), [
      { event: 'peopleUpdated', resourceIds: [first.body.id], data: null },
      { event: 'peopleTagsCreated', resourceIds: [first.body.id], data: { tags: ['new'] } },
    ]);
    await server.post(key, '/v1/people?deduplicate=true', { emails: ['dedup@example.com'] });
    assert.deepEqual(await newEvents(), [], 'nothing new to merge');
  });

  it('DELETE emits peopleDeleted and nothing else', async () => {
    const res = await server.post(key, '/v1/people', { firstName: 'Gone' });
    await newEvents();
    assert.equal((await server.del(key, `/v1/people/${res.body.id}`)).status, 204);
    assert.deepEqual(await newEvents(), [
      { event: 'peopleDeleted', resourceIds: [res.body.id], data: null },
    ]);
    assert.equal((await server.del(key, `/v1/people/${res.body.id}`)).status, 404);
    assert.deepEqual(await newEvents(), []);
  });

  it('rows are undispatched and carry the account', async () => {
    const res = await server.post(key, '/v1/people', { firstName: 'Row' });
    const row = await server.ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('account_id', '=', account.accountId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(row.event, 'peopleCreated');
    assert.equal(row.resource_ids, JSON.stringify([res.body.id]));
    assert.equal(row.dispatched_at, null);
    assert.match(row.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    await newEvents();
  });
});
