import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';
import { STANDARD_FIELDS } from '../../src/contacts/people/people.presenter.js';

/**
 * GET /v1/people and GET /v1/people/:id without `fields` take each person's JSON from the database
 * (people.document.ts); with `fields` presentPerson builds it. Both must say the same thing.
 */
describe('GET /v1/people: the database-written documents match presentPerson', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  const ids: number[] = [];

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
    const agent = await account.addUser('Agent', 'Agnès "Ace" O\'Agent');
    const lender = await account.addUser('Lender', 'Len \\ Lender');
    const people = [
      {
        firstName: 'Zoë',
        lastName: 'Ünïcødé 😀',
        stage: 'Prospect',
        source: 'www.zillow.com',
        sourceUrl: 'https://zillow.com/a?b=1&c="2"',
        price: 451234.75,
        contacted: true,
        background: 'Line one\nline two\t"quoted" \\ back\u0001slash </script> {ends in braces}}',
        emails: [{ value: 'Zoe@Example.com', type: 'work' }, 'second@example.com'],
        phones: [{ value: '+1 (555) 010-1000', type: 'mobile', isPrimary: true }],
        addresses: [
          {
            street: '1 "Main" St',
            city: 'Springfield',
            state: 'IL',
            code: '62701',
            country: 'US',
            type: 'home',
          },
        ],
        tags: ['Buyer', 'VIP', 'ünï'],
        assignedUserId: agent.id,
        assignedLenderId: lender.id,
        collaborators: [agent.id, lender.id],
      },
      { name: 'Plain Person' },
      { firstName: 'Price', lastName: 'Whole', price: 300000, stage: 'Lead' },
      { lastName: 'Only', emails: ['only@example.com'], tags: [] },
    ];
    for (const body of people) {
      const res = await server.post(key, '/v1/people', body);
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.id);
    }
    // lastActivity set by a logged call
    const call = await server.post(key, '/v1/calls', {
      personId: ids[0],
      phone: '5550101000',
      outcome: 'Interested',
      duration: 30,
      isIncoming: false,
    });
    assert.equal(call.status, 201, call.text);
  });
  after(async () => server.close());

  it('every person, every standard field, in the same order of people', async () => {
    const fromDatabase = await server.get(key, '/v1/people?limit=100');
    assert.equal(fromDatabase.status, 200, fromDatabase.text);
    assert.match(String(fromDatabase.headers['content-type']), /^application\/json; charset=utf-8/);
    const presented = await server.get(
      key,
      `/v1/people?limit=100&fields=${STANDARD_FIELDS.join(',')}`,
    );
    assert.equal(presented.status, 200, presented.text);
    assert.deepEqual(fromDatabase.body, presented.body);
    assert.deepEqual(
      fromDatabase.body.people.map((p: { id: number }) => p.id),
      [...ids].reverse(),
    );
    for (const person of fromDatabase.body.people) {
      assert.deepEqual(Object.keys(person), [...STANDARD_FIELDS]);
      const single = await server.get(key, `/v1/people/${person.id}`);
      assert.deepEqual(single.body, person);
      const singlePresented = await server.get(
        key,
        `/v1/people/${person.id}?fields=${STANDARD_FIELDS.join(',')}`,
      );
      assert.deepEqual(single.body, singlePresented.body);
    }
    const rich = fromDatabase.body.people.find((p: { id: number }) => p.id === ids[0]);
    assert.equal(rich.price, 451234.75);
    assert.equal(rich.assignedTo, 'Agnès "Ace" O\'Agent');
    assert.equal(rich.assignedLenderName, 'Len \\ Lender');
    assert.equal(rich.stage, 'Prospect');
    assert.ok(rich.lastActivity);
    assert.equal(rich.collaborators.length, 2);
  });

  it('pages and cursors are the same on both paths', async () => {
    const first = await server.get(key, '/v1/people?limit=2&sort=lastName');
    const presented = await server.get(key, '/v1/people?limit=2&sort=lastName&fields=allFields');
    const { nextLink, ...metadata } = first.body._metadata;
    const { nextLink: presentedLink, ...presentedMetadata } = presented.body._metadata;
    assert.deepEqual(metadata, presentedMetadata);
    assert.equal(presentedLink, nextLink.replace('&next=', '&fields=allFields&next='));
    const next = await server.get(
      key,
      `/v1/people?limit=2&sort=lastName&next=${encodeURIComponent(first.body._metadata.next)}`,
    );
    assert.deepEqual(
      [...first.body.people, ...next.body.people].map((p: { lastName: string }) => p.lastName),
      ['Only', 'Person', 'Whole', 'Ünïcødé 😀'],
    );
    const empty = await server.get(key, '/v1/people?limit=0');
    assert.deepEqual(empty.body, {
      _metadata: { collection: 'people', offset: 0, limit: 0, total: 4 },
      people: [],
    });
  });
});
