import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';
import { outboxOf } from '../support/outbox.js';

describe('people: create, read, update, delete', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  let agent: TestUser;
  let lender: TestUser;

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
    agent = await account.addUser('Agent', 'Ann Agent');
    lender = await account.addUser('Lender', 'Lou Lender');
  });
  after(async () => server.close());

  it('POST stores every field and answers 201 with the GET shape', async () => {
    const res = await server.post(key, '/v1/people', {
      firstName: ' Grace ',
      lastName: 'Hopper',
      stage: 'Prospect',
      source: 'www.Example-Homes.com',
      sourceUrl: 'https://crm.example/lead/7',
      emails: [{ value: 'grace@example.com', type: 'work' }, 'g.hopper@example.com'],
      phones: ['+1 (555) 010-3030', { value: '555 010 4040', type: 'home', isPrimary: false }],
      addresses: [
        { street: '1 Navy Way', city: 'Arlington', state: 'VA', code: '22201', country: 'US' },
      ],
      price: 450000.5,
      background: 'Admiral',
      contacted: 1,
      assignedUserId: agent.id,
      assignedLenderId: lender.id,
      tags: ['Buyer', 'buyer', ' VIP '],
      collaborators: [account.owner.id],
    });
    assert.equal(res.status, 201, res.text);
    const p = res.body;
    assert.equal(p.name, 'Grace Hopper');
    assert.equal(p.firstName, 'Grace');
    assert.equal(p.stage, 'Prospect');
    assert.equal(typeof p.stageId, 'number');
    assert.equal(p.source, 'Example-Homes.com');
    assert.equal(p.sourceUrl, 'https://crm.example/lead/7');
    assert.equal(p.createdVia, 'API');
    assert.equal(p.lastActivity, null);
    assert.match(p.created, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(p.created, p.updated);
    assert.deepEqual(p.emails, [
      { value: 'grace@example.com', type: 'work', status: 'Not Validated', isPrimary: true },
      { value: 'g.hopper@example.com', type: 'other', status: 'Not Validated', isPrimary: false },
    ]);
    assert.deepEqual(
      p.phones.map((x: { normalized: string }) => x.normalized),
      ['5550103030', '5550104040'],
    );
    assert.equal(p.phones[0].value, '+1 (555) 010-3030');
    assert.equal(p.phones[0].isPrimary, true);
    assert.deepEqual(p.addresses, [
      {
        street: '1 Navy Way',
        city: 'Arlington',
        state: 'VA',
        code: '22201',
        country: 'US',
        type: 'home',
      },
    ]);
    assert.equal(p.price, 450000.5);
    assert.equal(p.background, 'Admiral');
    assert.equal(p.contacted, 1);
    assert.equal(p.assignedUserId, agent.id);
    assert.equal(p.assignedTo, 'Ann Agent');
    assert.equal(p.assignedLenderId, lender.id);
    assert.equal(p.assignedLenderName, 'Lou Lender');
    assert.deepEqual(p.tags, ['Buyer', 'VIP']);
    assert.deepEqual(p.collaborators, [{ id: account.owner.id, name: account.owner.name }]);
    const got = await server.get(key, `/v1/people/${p.id}`);
    assert.deepEqual(got.body, p);
  });

  it('a person without a stage starts as Lead; stage by name or stageId; unknown stage is 400', async () => {
    const res = await server.post(key, '/v1/people', { name: 'Stage Less' });
    assert.equal(res.body.stage, 'Lead');
    assert.equal(res.body.firstName, 'Stage');
    assert.equal(res.body.lastName, 'Less');
    const prospect = await server.post(key, '/v1/people', { name: 'P', stage: 'Prospect' });
    const byId = await server.put(key, `/v1/people/${res.body.id}`, {
      stageId: prospect.body.stageId,
    });
    assert.equal(byId.body.stage, 'Prospect');
    const bad = await server.put(key, `/v1/people/${res.body.id}`, { stage: 'Nope' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'stage');
    const badId = await server.put(key, `/v1/people/${res.body.id}`, { stageId: 999999 });
    assert.equal(badId.status, 400);
    assert.equal(badId.body.errors[0].field, 'stageId');
  });

  it('assignedTo and assignedUserId stay consistent with the users table', async () => {
    const res = await server.post(key, '/v1/people', {
      firstName: 'Assign',
      assignedTo: 'Ann Agent',
    });
    assert.equal(res.body.assignedUserId, agent.id);
    const byId = await server.put(key, `/v1/people/${res.body.id}`, {
      assignedUserId: account.owner.id,
    });
    assert.equal(byId.body.assignedTo, account.owner.name);
    const lenderByName = await server.put(key, `/v1/people/${res.body.id}`, {
      assignedLenderName: 'Lou Lender',
    });
    assert.equal(lenderByName.body.assignedLenderId, lender.id);
    const cleared = await server.put(key, `/v1/people/${res.body.id}`, {
      assignedUserId: null,
      assignedLenderId: 0,
    });
    assert.equal(cleared.body.assignedUserId, null);
    assert.equal(cleared.body.assignedTo, null);
    assert.equal(cleared.body.assignedLenderName, null);
    const unknown = await server.put(key, `/v1/people/${res.body.id}`, {
      assignedTo: 'Nobody Known',
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.errors[0].field, 'assignedTo');
    // a renamed user shows under the new name
    await server.ctx.db
      .updateTable('users')
      .set({ name: 'Ann Renamed' })
      .where('id', '=', agent.id)
      .execute();
    const again = await server.put(key, `/v1/people/${res.body.id}`, { assignedUserId: agent.id });
    assert.equal(again.body.assignedTo, 'Ann Renamed');
    await server.ctx.db
      .updateTable('users')
      .set({ name: 'Ann Agent' })
      .where('id', '=', agent.id)
      .execute();
  });

  it('PUT changes only the fields sent; arrays are replaced whole; price can be cleared', async () => {
    const res = await server.post(key, '/v1/people', {
      firstName: 'Put',
      lastName: 'Me',
      emails: ['a@example.com', 'b@example.com'],
      phones: ['5550105050'],
      tags: ['x', 'y'],
      price: 5,
      background: 'keep',
    });
    const id = res.body.id;
    const put = await server.put(key, `/v1/people/${id}`, {
      emails: ['c@example.com'],
      tags: ['z'],
      price: null,
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(
      put.body.emails.map((e: { value: string }) => e.value),
      ['c@example.com'],
    );
    assert.deepEqual(put.body.tags, ['z']);
    assert.equal(put.body.price, null);
    assert.equal(put.body.background, 'keep');
    assert.equal(put.body.phones[0].normalized, '5550105050');
    assert.equal(put.body.name, 'Put Me');
    const first = await server.put(key, `/v1/people/${id}`, { firstName: 'Changed' });
    assert.equal(first.body.name, 'Changed Me');
    // replaced contacts no longer match
    assert.equal(
      (await server.get(key, '/v1/people/checkDuplicate?email=a@example.com')).body.found,
      false,
    );
    assert.equal(
      (await server.get(key, '/v1/people/checkDuplicate?email=C@example.com')).body.personId,
      id,
    );
    // the lookup rows follow each change exactly: kept values are not duplicated, removed ones go
    const lookupRows = async () =>
      (
        await server.ctx.db
          .selectFrom('person_emails')
          .select('email')
          .where('person_id', '=', id)
          .orderBy('email')
          .execute()
      ).map((r) => r.email);
    assert.deepEqual(await lookupRows(), ['c@example.com']);
    await server.put(key, `/v1/people/${id}`, { emails: ['C@example.com', 'D@example.com'] });
    assert.deepEqual(await lookupRows(), ['c@example.com', 'd@example.com']);
    await server.put(key, `/v1/people/${id}`, { emails: ['d@example.com'] });
    assert.deepEqual(await lookupRows(), ['d@example.com']);
  });

  it('mergeTags=true adds to the tags instead of replacing them', async () => {
    const res = await server.post(key, '/v1/people', { firstName: 'Tags', tags: ['one', 'two'] });
    const merged = await server.put(key, `/v1/people/${res.body.id}?mergeTags=true`, {
      tags: ['TWO', 'three'],
    });
    assert.deepEqual(merged.body.tags, ['one', 'two', 'three']);
    const replaced = await server.put(key, `/v1/people/${res.body.id}?mergeTags=false`, {
      tags: ['only'],
    });
    assert.deepEqual(replaced.body.tags, ['only']);
  });

  it('deduplicate=true updates the person matching an email or phone instead of creating one', async () => {
    const first = await server.post(key, '/v1/people', {
      firstName: 'Dee',
      emails: ['dee@example.com'],
      phones: ['555-010-6060'],
      tags: ['old'],
      background: 'original',
    });
    const byEmail = await server.post(key, '/v1/people?deduplicate=true', {
      firstName: 'Other',
      lastName: 'Dupe',
      emails: ['DEE@example.com'],
      tags: ['new'],
      background: 'ignored',
      price: 99,
    });
    assert.equal(byEmail.status, 200, byEmail.text);
    assert.equal(byEmail.body.id, first.body.id);
    assert.equal(byEmail.body.firstName, 'Dee', 'stored values are not overwritten');
    assert.equal(byEmail.body.lastName, 'Dupe', 'empty fields are filled');
    assert.equal(byEmail.body.background, 'original');
    assert.equal(byEmail.body.price, 99);
    assert.deepEqual(byEmail.body.tags, ['old', 'new']);
    const byPhone = await server.post(key, '/v1/people?deduplicate=true', {
      emails: ['dee2@example.com'],
      phones: ['+1 555 010 6060'],
    });
    assert.equal(byPhone.status, 200);
    assert.equal(byPhone.body.id, first.body.id);
    assert.deepEqual(
      byPhone.body.emails.map((e: { value: string }) => e.value),
      ['dee@example.com', 'dee2@example.com'],
    );
    const fresh = await server.post(key, '/v1/people?deduplicate=true', {
      emails: ['someone-new@example.com'],
    });
    assert.equal(fresh.status, 201);
    const without = await server.post(key, '/v1/people', { emails: ['dee@example.com'] });
    assert.equal(without.status, 201, 'without deduplicate a duplicate is created');
    assert.notEqual(without.body.id, first.body.id);
  });

  it('checkDuplicate reports the match, how and to whom it is assigned', async () => {
    const p = await server.post(key, '/v1/people', {
      firstName: 'Check',
      emails: ['check@example.com'],
      phones: ['(555) 010-7070'],
      assignedUserId: agent.id,
    });
    assert.deepEqual(
      (await server.get(key, '/v1/people/checkDuplicate?email=CHECK@example.com')).body,
      {
        found: true,
        matchedBy: 'email',
        assignedTo: 'Ann Agent',
        personId: p.body.id,
      },
    );
    assert.deepEqual((await server.get(key, '/v1/people/checkDuplicate?phone=555.010.7070')).body, {
      found: true,
      matchedBy: 'phone',
      assignedTo: 'Ann Agent',
      personId: p.body.id,
    });
    assert.deepEqual(
      (await server.get(key, '/v1/people/checkDuplicate?email=none@example.com&phone=5550100000'))
        .body,
      {
        found: false,
        matchedBy: null,
        assignedTo: null,
        personId: null,
      },
    );
    const missing = await server.get(key, '/v1/people/checkDuplicate');
    assert.equal(missing.status, 400);
  });

  it('DELETE removes the person: GET, PUT and DELETE are then 404 and their contacts no longer match', async () => {
    const p = await server.post(key, '/v1/people', {
      firstName: 'Del',
      emails: ['del@example.com'],
      tags: ['gone'],
    });
    const res = await server.del(key, `/v1/people/${p.body.id}`);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await server.get(key, `/v1/people/${p.body.id}`)).status, 404);
    assert.equal(
      (await server.put(key, `/v1/people/${p.body.id}`, { firstName: 'x' })).status,
      404,
    );
    assert.equal((await server.del(key, `/v1/people/${p.body.id}`)).status, 404);
    assert.equal(
      (await server.get(key, '/v1/people/checkDuplicate?email=del@example.com')).body.found,
      false,
    );
    assert.deepEqual((await server.get(key, '/v1/people?tags=gone')).body.people, []);
    const lookups = await server.ctx.db
      .selectFrom('person_tags')
      .select('person_id')
      .where('person_id', '=', p.body.id)
      .execute();
    assert.deepEqual(lookups, []);
  });

  it('concurrent mergeTags updates of one person lose no tag and each fires its own peopleTagsCreated', async () => {
    const p = await server.post(key, '/v1/people', { firstName: 'Busy' });
    const outbox = await outboxOf(server, account.accountId);
    const tags = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const results = await Promise.all(
      tags.map((tag) => server.put(key, `/v1/people/${p.body.id}?mergeTags=true`, { tags: [tag] })),
    );
    for (const r of results) assert.equal(r.status, 200, r.text);
    const got = await server.get(key, `/v1/people/${p.body.id}`);
    assert.deepEqual([...got.body.tags].sort(), [...tags].sort());
    const events = (await outbox.take()).filter(
      (e) => e.event === 'peopleTagsCreated' && e.resourceIds.join() === String(p.body.id),
    );
    assert.deepEqual(events.map((e) => (e.data?.tags as string[])[0]).sort(), [...tags].sort());
  });

  it('empty strings and whitespace in contacts are dropped, duplicates collapsed', async () => {
    const res = await server.post(key, '/v1/people', {
      emails: ['  x@example.com ', 'X@example.com', ''],
      phones: ['555-010-8080', '(555) 010 8080'],
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      res.body.emails.map((e: { value: string }) => e.value),
      ['x@example.com'],
    );
    assert.equal(res.body.phones.length, 1);
  });
});
