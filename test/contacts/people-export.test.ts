import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';

const rowsOf = (text: string) =>
  parse(text.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];

describe('GET /v1/people/export', () => {
  let server: TestServer;
  let account: TestAccount;
  let agent: TestUser;
  let key: string;

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
    agent = await account.addUser('Agent');
    const field = await server.post(key, '/v1/customFields', {
      label: 'Closing date',
      type: 'date',
    });
    assert.equal(field.status, 201, field.text);
    const make = async (body: Record<string, unknown>) => {
      const res = await server.post(key, '/v1/people', body);
      assert.equal(res.status, 201, res.text);
    };
    await make({
      firstName: 'Ana',
      lastName: 'Lima, "Jr"',
      emails: ['ana@example.com', 'ana.work@example.com'],
      phones: ['555-010-1111'],
      addresses: [{ street: '1 Main St', city: 'Springfield', state: 'IL', code: '62701' }],
      tags: ['buyer', 'vip'],
      source: 'example.com',
      price: 325000,
      background: 'Line one\nline two',
      customClosingDate: '2026-05-01',
      assignedUserId: agent.id,
    });
    await make({ firstName: 'Bo', emails: ['bo@example.com'], tags: ['seller'] });
    await make({ firstName: 'Cy', phones: ['555-010-3333', '555-010-4444', '555 010 5555'] });
  });
  after(async () => server.close());

  it('streams every match as CSV with the columns the import reads, custom fields included', async () => {
    const res = await server.get(key, '/v1/people/export');
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(String(res.headers['content-disposition']), /attachment; filename="people-/);
    const rows = rowsOf(res.text);
    assert.deepEqual(
      rows.map((r) => r['First Name']),
      ['Ana', 'Bo', 'Cy'],
    );
    const ana = rows[0];
    assert.equal(ana['Last Name'], 'Lima, "Jr"');
    assert.equal(ana.Email, 'ana@example.com');
    assert.equal(ana['Email 2'], 'ana.work@example.com');
    assert.equal(ana.Phone, '555-010-1111');
    assert.equal(ana['Phone 3'], '');
    assert.equal(rows[2]['Phone 3'], '555 010 5555');
    assert.equal(ana.Street, '1 Main St');
    assert.equal(ana.Zip, '62701');
    assert.equal(ana.Tags, 'buyer, vip');
    assert.equal(ana.Stage, 'Lead');
    assert.equal(ana.Price, '325000');
    assert.equal(ana.Background, 'Line one\nline two');
    assert.equal(ana['Assigned To'], agent.name);
    assert.equal(ana['Closing date'], '2026-05-01');
    assert.match(ana.Created, /^\d{4}-\d\d-\d\dT/);
  });

  it('takes the filters of GET /v1/people', async () => {
    const byTag = rowsOf((await server.get(key, '/v1/people/export?tags=seller,vip')).text);
    assert.deepEqual(
      byTag.map((r) => r['First Name']),
      ['Ana', 'Bo'],
    );
    const byPhone = rowsOf((await server.get(key, '/v1/people/export?phone=5550104444')).text);
    assert.deepEqual(
      byPhone.map((r) => r['First Name']),
      ['Cy'],
    );
    const bad = await server.get(key, '/v1/people/export?createdAfter=yesterday-ish');
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /createdAfter/);
    const list = await server.post(key, '/v1/smartLists', {
      name: 'Buyers',
      filters: { tags: 'buyer' },
    });
    assert.equal(list.status, 201, list.text);
    const bySmartList = rowsOf(
      (await server.get(key, `/v1/people/export?smartListId=${list.body.id}`)).text,
    );
    assert.deepEqual(
      bySmartList.map((r) => r['First Name']),
      ['Ana'],
    );
  });

  it("an Agent's export holds only their people", async () => {
    const res = await server.get(agent.key, '/v1/people/export');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      rowsOf(res.text).map((r) => r['First Name']),
      ['Ana'],
    );
    const other = await account.addUser('Agent');
    const none = rowsOf((await server.get(other.key, '/v1/people/export')).text);
    assert.equal(none.length, 0);
  });

  it('format=jsonl gives the full person documents, one a line', async () => {
    const res = await server.get(key, '/v1/people/export?format=jsonl&firstName=Ana');
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers['content-type']), /^application\/x-ndjson/);
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 1);
    const one = await server.get(key, `/v1/people/${lines[0].id}?fields=allFields`);
    assert.deepEqual(lines[0], one.body);
    const bad = await server.get(key, '/v1/people/export?format=xlsx');
    assert.equal(bad.status, 400);
  });
});
