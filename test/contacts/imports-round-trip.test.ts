import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { allPeople, importCsv } from './imports-helpers.js';

describe('export → import round trip', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ worker: true });
  });
  after(async () => server.close());

  const setUp = async () => {
    const account = await server.newAccount();
    const key = account.owner.key;
    await account.addUser('Agent', 'Round Trip Agent');
    for (const field of [
      { label: 'Closing date', type: 'date' },
      { label: 'Budget', type: 'number' },
      { label: 'Heating', type: 'dropdown', choices: ['Gas', 'Heat pump'] },
    ]) {
      const res = await server.post(key, '/v1/customFields', field);
      assert.equal(res.status, 201, res.text);
    }
    return { account, key };
  };

  it('an export imports back into an empty account unchanged', async () => {
    const from = await setUp();
    const people = [
      {
        firstName: 'Ana',
        lastName: 'Lima, "Jr"',
        emails: ['ana@example.com', 'ana.work@example.com', 'ana3@example.com'],
        phones: ['555-010-1111', '+1 (555) 010-2222'],
        addresses: [
          { street: '1 Main St', city: 'Springfield', state: 'IL', code: '62701', country: 'US' },
        ],
        tags: ['buyer', 'vip'],
        stage: 'Prospect',
        source: 'example.com',
        sourceUrl: 'https://example.com/leads/1',
        price: 325000.5,
        contacted: true,
        background: 'Line one\nline "two"; three,\ttab',
        assignedTo: 'Round Trip Agent',
        customClosingDate: '2026-05-01',
        customBudget: 410000,
        customHeating: 'Heat pump',
      },
      { firstName: 'Bo', emails: ['bo@example.com'] },
      { firstName: 'Émile', lastName: 'Zoë', phones: ['555 010 3333'], tags: ['ünïcode'] },
    ];
    for (const body of people) {
      const res = await server.post(from.key, '/v1/people', body);
      assert.equal(res.status, 201, res.text);
    }
    const exported = await server.get(from.key, '/v1/people/export');
    assert.equal(exported.status, 200);

    const to = await setUp();
    const done = await importCsv(server, to.key, exported.text);
    assert.deepEqual([done.created, done.errorCount], [3, 0], JSON.stringify(done));
    const again = await server.get(to.key, '/v1/people/export');
    assert.equal(again.text, exported.text, 'the second export is the first, byte for byte');

    const strip = (p: Record<string, unknown>) => {
      // ids are the new account's own; the names beside them (stage, assignedTo) are compared
      const { id, updated, assignedUserId, stageId, ...rest } = p;
      void [id, updated, assignedUserId, stageId];
      return { ...rest, createdVia: undefined };
    };
    const before = (await allPeople(server, from.key)).map(strip);
    const after = (await allPeople(server, to.key)).map(strip);
    assert.deepEqual(after, before, 'the same person documents, custom fields included');
  });
});
