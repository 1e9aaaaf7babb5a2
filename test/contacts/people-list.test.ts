import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';

const T0 = Date.parse('2025-03-01T10:00:00Z');

describe('GET /v1/people: filters, sort, fields, trash', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let agent: TestUser;
  let lender: TestUser;
  let now = T0;
  const id: Record<string, number> = {};

  const list = async (query: string) => {
    const res = await server.get(key, `/v1/people?limit=100&${query}`);
    assert.equal(res.status, 200, `${query}: ${res.text}`);
    return res.body.people
      .map((p: { id: number }) => p.id)
      .sort((a: number, b: number) => a - b) as number[];
  };
  const sorted = (...names: string[]) => names.map((n) => id[n]).sort((a, b) => a - b);

  before(async () => {
    server = await startServer({ clock: { now: () => now } });
    account = await server.newAccount();
    key = account.owner.key;
    agent = await account.addUser('Agent', 'Agnes Agent');
    lender = await account.addUser('Lender', 'Len Lender');
    const make = async (name: string, body: Record<string, unknown>) => {
      now += 3600_000; // one hour apart
      const res = await server.post(key, '/v1/people', { name, ...body });
      assert.equal(res.status, 201, res.text);
      id[name] = res.body.id;
    };
    await make('Alice Archer', {
      emails: ['alice@example.com'],
      phones: ['(555) 010-1000'],
      tags: ['Buyer', 'VIP'],
      stage: 'Prospect',
      source: 'www.zillow.com',
      price: 300000,
      assignedUserId: agent.id,
    });
    await make('Bob Baker', {
      emails: ['bob@example.com'],
      phones: ['+1 555 010 2000'],
      tags: ['seller'],
      stage: 'Lead',
      source: 'realtor.com',
      price: 150000,
      assignedLenderId: lender.id,
    });
    await make('Carol Archer', {
      emails: ['CAROL@Example.com'],
      tags: ['buyer'],
      stage: 'Prospect',
      source: 'zillow.com',
      price: 500000,
      assignedUserId: agent.id,
    });
    await make('Dan 100% Real_Name', { tags: [], source: 'referral' });
    await make('Eve Trashed', { emails: ['eve@example.com'], stage: 'Trash', price: 10 });
    now += 3600_000;
    await server.ctx.db
      .updateTable('people')
      .set({ last_activity: '2025-03-01T12:30:00Z' })
      .where('id', '=', id['Bob Baker'])
      .execute();
    await server.ctx.db
      .updateTable('people')
      .set({ last_activity: '2025-03-01T14:30:00Z' })
      .where('id', '=', id['Carol Archer'])
      .execute();
  });
  after(async () => server.close());

  it('Trash is hidden by default; includeTrash and stage=Trash show it', async () => {
    assert.deepEqual(
      await list(''),
      sorted('Alice Archer', 'Bob Baker', 'Carol Archer', 'Dan 100% Real_Name'),
    );
    assert.deepEqual(
      await list('includeTrash=true'),
      Object.values(id).sort((a, b) => a - b),
    );
    assert.deepEqual(
      await list('includeTrash=1'),
      Object.values(id).sort((a, b) => a - b),
    );
    assert.deepEqual(
      await list('includeTrash=false'),
      sorted('Alice Archer', 'Bob Baker', 'Carol Archer', 'Dan 100% Real_Name'),
    );
    assert.deepEqual(await list('stage=Trash'), sorted('Eve Trashed'));
    assert.deepEqual(await list('email=eve@example.com'), []);
    assert.deepEqual(await list('email=eve@example.com&includeTrash=true'), sorted('Eve Trashed'));
    // naming ids (as a webhook uri does) finds a trashed person too, unless includeTrash=false
    assert.deepEqual(
      await list(`id=${id['Eve Trashed']},${id['Bob Baker']}`),
      sorted('Eve Trashed', 'Bob Baker'),
    );
    assert.deepEqual(await list(`id=${id['Eve Trashed']}&includeTrash=false`), []);
    assert.equal((await server.get(key, `/v1/people/${id['Eve Trashed']}`)).status, 200);
  });

  it('single filters', async () => {
    assert.deepEqual(
      await list(`id=${id['Alice Archer']},${id['Bob Baker']},999999`),
      sorted('Alice Archer', 'Bob Baker'),
    );
    assert.deepEqual(await list('email=carol@example.com'), sorted('Carol Archer'));
    assert.deepEqual(await list('email=ALICE@EXAMPLE.COM'), sorted('Alice Archer'));
    assert.deepEqual(await list('phone=555.010.2000'), sorted('Bob Baker'));
    assert.deepEqual(await list('phone=15550101000'), sorted('Alice Archer'));
    assert.deepEqual(await list('stage=Prospect'), sorted('Alice Archer', 'Carol Archer'));
    const lead = await server.get(key, `/v1/people/${id['Bob Baker']}`);
    assert.deepEqual(
      await list(`stageId=${lead.body.stageId}`),
      sorted('Bob Baker', 'Dan 100% Real_Name'),
    );
    assert.deepEqual(await list('source=zillow.com'), sorted('Alice Archer', 'Carol Archer'));
    assert.deepEqual(await list('source=www.zillow.com'), sorted('Alice Archer', 'Carol Archer'));
    assert.deepEqual(await list('name=archer'), sorted('Alice Archer', 'Carol Archer'));
    assert.deepEqual(await list('firstName=AL'), sorted('Alice Archer'));
    assert.deepEqual(await list('lastName=bak'), sorted('Bob Baker'));
    assert.deepEqual(await list('tags=vip,SELLER'), sorted('Alice Archer', 'Bob Baker'));
    assert.deepEqual(await list('tags=buyer'), sorted('Alice Archer', 'Carol Archer'));
    assert.deepEqual(
      await list(`assignedTo=${encodeURIComponent(agent.name)}`),
      sorted('Alice Archer', 'Carol Archer'),
    );
    assert.deepEqual(
      await list(`assignedUserId=${agent.id}`),
      sorted('Alice Archer', 'Carol Archer'),
    );
    assert.deepEqual(await list(`assignedLenderId=${lender.id}`), sorted('Bob Baker'));
    assert.deepEqual(await list('priceAbove=300000'), sorted('Alice Archer', 'Carol Archer'));
    assert.deepEqual(await list('priceBelow=300000'), sorted('Alice Archer', 'Bob Baker'));
  });

  it('name filters treat % and _ literally', async () => {
    assert.deepEqual(await list('name=%25'), sorted('Dan 100% Real_Name'));
    assert.deepEqual(await list('name=l_n'), sorted('Dan 100% Real_Name'));
    assert.deepEqual(await list('name=e_n'), []);
  });

  it('date range filters', async () => {
    // created one hour apart from 11:00 (Alice) to 15:00 (Eve)
    assert.deepEqual(
      await list('createdAfter=2025-03-01T12:00:00Z'),
      sorted('Bob Baker', 'Carol Archer', 'Dan 100% Real_Name'),
    );
    assert.deepEqual(
      await list('createdBefore=2025-03-01T12:00:00Z'),
      sorted('Alice Archer', 'Bob Baker'),
    );
    assert.deepEqual(
      await list('createdAfter=2025-03-01T12:00:00Z&createdBefore=2025-03-01T13:00:00Z'),
      sorted('Bob Baker', 'Carol Archer'),
    );
    assert.deepEqual(await list('createdAfter=2025-03-02'), []);
    assert.deepEqual(await list('updatedAfter=2025-03-01T13:30:00Z'), sorted('Dan 100% Real_Name'));
    assert.deepEqual(await list('updatedBefore=2025-03-01T11:00:00Z'), sorted('Alice Archer'));
    assert.deepEqual(await list('lastActivityAfter=2025-03-01T13:00:00Z'), sorted('Carol Archer'));
    assert.deepEqual(await list('lastActivityBefore=2025-03-01T13:00:00Z'), sorted('Bob Baker'));
    const bad = await server.get(key, '/v1/people?createdAfter=yesterday');
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /createdAfter/);
  });

  it('filters combine with AND', async () => {
    assert.deepEqual(
      await list('tags=buyer&stage=Prospect&priceAbove=400000'),
      sorted('Carol Archer'),
    );
    assert.deepEqual(await list('name=archer&email=alice@example.com'), sorted('Alice Archer'));
    assert.deepEqual(await list('source=zillow.com&tags=seller'), []);
    assert.deepEqual(
      await list(`assignedUserId=${agent.id}&lastActivityAfter=2025-03-01T00:00:00Z`),
      sorted('Carol Archer'),
    );
    const res = await server.get(key, '/v1/people?tags=buyer&stage=Prospect&limit=1');
    assert.equal(res.body._metadata.total, 2);
  });

  it('sort: a field name ascending, -field descending, default id descending', async () => {
    const order = async (q: string) => {
      const res = await server.get(key, `/v1/people?limit=100&${q}`);
      assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
      return res.body.people.map((p: { name: string }) => p.name);
    };
    assert.deepEqual(await order(''), [
      'Dan 100% Real_Name',
      'Carol Archer',
      'Bob Baker',
      'Alice Archer',
    ]);
    assert.deepEqual(await order('sort=id'), [
      'Alice Archer',
      'Bob Baker',
      'Carol Archer',
      'Dan 100% Real_Name',
    ]);
    assert.deepEqual(await order('sort=-price'), [
      'Carol Archer',
      'Alice Archer',
      'Bob Baker',
      'Dan 100% Real_Name',
    ]);
    assert.deepEqual(await order('sort=price'), [
      'Dan 100% Real_Name',
      'Bob Baker',
      'Alice Archer',
      'Carol Archer',
    ]);
    assert.deepEqual(await order('sort=lastName'), [
      'Dan 100% Real_Name',
      'Alice Archer',
      'Carol Archer',
      'Bob Baker',
    ]); // '100% Real_Name' sorts first
    assert.deepEqual(await order('sort=-created'), [
      'Dan 100% Real_Name',
      'Carol Archer',
      'Bob Baker',
      'Alice Archer',
    ]);
    assert.deepEqual(await order('sort=-lastActivity'), [
      'Carol Archer',
      'Bob Baker',
      'Dan 100% Real_Name',
      'Alice Archer',
    ]);
    const bad = await server.get(key, '/v1/people?sort=email');
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /Cannot sort by 'email'/);
  });

  it('fields: a list keeps id and the named fields; allFields adds custom fields', async () => {
    await server.post(key, '/v1/customFields', { label: 'Closing Date', type: 'date' });
    await server.post(key, '/v1/customFields', {
      label: 'Mood',
      type: 'dropdown',
      choices: ['Hot', 'Cold'],
    });
    await server.put(key, `/v1/people/${id['Alice Archer']}`, {
      customClosingDate: '2025-06-30',
      customMood: 'Hot',
    });

    const plain = await server.get(key, `/v1/people/${id['Alice Archer']}`);
    assert.equal(plain.body.customClosingDate, undefined, 'custom values only when asked');
    assert.equal(plain.body.name, 'Alice Archer');
    const listPlain = await server.get(key, `/v1/people?id=${id['Alice Archer']}`);
    assert.equal(listPlain.body.people[0].customMood, undefined);

    const all = await server.get(
      key,
      `/v1/people?id=${id['Alice Archer']},${id['Bob Baker']}&fields=allFields&sort=id`,
    );
    assert.equal(all.body.people[0].customClosingDate, '2025-06-30');
    assert.equal(all.body.people[0].customMood, 'Hot');
    assert.equal(all.body.people[0].emails[0].value, 'alice@example.com');
    assert.equal(all.body.people[1].customMood, null);
    const single = await server.get(key, `/v1/people/${id['Alice Archer']}?fields=allFields`);
    assert.equal(single.body.customMood, 'Hot');

    const some = await server.get(
      key,
      `/v1/people?id=${id['Alice Archer']}&fields=name,tags,customMood`,
    );
    assert.deepEqual(some.body.people[0], {
      id: id['Alice Archer'],
      name: 'Alice Archer',
      tags: ['Buyer', 'VIP'],
      customMood: 'Hot',
    });
    const one = await server.get(key, `/v1/people/${id['Alice Archer']}?fields=stage`);
    assert.deepEqual(one.body, { id: id['Alice Archer'], stage: 'Prospect' });
    const unknown = await server.get(key, '/v1/people?fields=name,shoeSize');
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.errorMessage, /shoeSize/);
  });

  it('an agent filtering sees only their own people', async () => {
    const res = await server.get(agent.key, '/v1/people?limit=100&tags=buyer,seller');
    assert.deepEqual(
      res.body.people.map((p: { id: number }) => p.id).sort((a: number, b: number) => a - b),
      sorted('Alice Archer', 'Carol Archer'),
    );
  });
});
