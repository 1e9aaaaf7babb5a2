import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';

describe('custom fields: definitions and values on people', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
  });
  after(async () => server.close());

  it('POST defines a field whose name is the key used on people; GET lists and reads it', async () => {
    const res = await server.post(key, '/v1/customFields', {
      label: 'Closing date',
      type: 'date',
      orderWeight: 5,
      hideIfEmpty: 1,
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, 'customClosingDate');
    assert.equal(res.body.label, 'Closing date');
    assert.equal(res.body.type, 'date');
    assert.deepEqual(res.body.choices, []);
    assert.equal(res.body.orderWeight, 5);
    assert.equal(res.body.hideIfEmpty, true);
    const again = await server.post(key, '/v1/customFields', {
      label: 'Closing Date!',
      type: 'text',
    });
    assert.equal(again.body.name, 'customClosingDate2', 'names stay unique');
    const list = await server.get(key, '/v1/customFields');
    assert.equal(list.status, 200);
    assert.equal(list.body._metadata.collection, 'customfields');
    assert.deepEqual(
      list.body.customfields.map((f: { name: string }) => f.name),
      ['customClosingDate2', 'customClosingDate'],
    );
    const one = await server.get(key, `/v1/customFields/${res.body.id}`);
    assert.deepEqual(one.body, res.body);
  });

  it('definition input is validated', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ label: 'X', type: 'colour' }, /type/],
      [{ label: '', type: 'text' }, /label/],
      [{ type: 'text' }, /label/],
      [{ label: 'Drop', type: 'dropdown' }, /choices/],
      [{ label: 'Drop', type: 'dropdown', choices: [] }, /choices/],
      [{ label: 'Txt', type: 'text', choices: ['a'] }, /Only dropdown/],
      [{ label: 'X', type: 'text', extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      const res = await server.post(key, '/v1/customFields', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.errorMessage, message);
    }
  });

  it('PUT changes label, choices, weight; the type cannot change', async () => {
    const def = await server.post(key, '/v1/customFields', {
      label: 'Temperature',
      type: 'dropdown',
      choices: ['Hot', 'Cold'],
    });
    const put = await server.put(key, `/v1/customFields/${def.body.id}`, {
      label: 'Temp',
      choices: ['Hot', 'Warm', 'Cold'],
      orderWeight: 3,
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.label, 'Temp');
    assert.equal(put.body.name, 'customTemperature', 'the key never changes');
    assert.deepEqual(put.body.choices, ['Hot', 'Warm', 'Cold']);
    const sameType = await server.put(key, `/v1/customFields/${def.body.id}`, { type: 'dropdown' });
    assert.equal(sameType.status, 200);
    const typeChange = await server.put(key, `/v1/customFields/${def.body.id}`, { type: 'text' });
    assert.equal(typeChange.status, 400);
    assert.match(typeChange.body.errorMessage, /type of a custom field cannot change/);
    assert.equal((await server.put(key, '/v1/customFields/999999', { label: 'x' })).status, 404);
  });

  it('values are type-checked per field type', async () => {
    await server.post(key, '/v1/customFields', { label: 'Notes Text', type: 'text' });
    await server.post(key, '/v1/customFields', { label: 'Budget', type: 'number' });
    await server.post(key, '/v1/customFields', { label: 'Move Date', type: 'date' });
    await server.post(key, '/v1/customFields', {
      label: 'Heat',
      type: 'dropdown',
      choices: ['Hot', 'Cold'],
    });
    const ok = await server.post(key, '/v1/people', {
      firstName: 'Typed',
      customNotesText: 'hello',
      customBudget: '250000',
      customMoveDate: '2025-07-01',
      customHeat: 'Hot',
    });
    assert.equal(ok.status, 201, ok.text);
    const got = await server.get(key, `/v1/people/${ok.body.id}?fields=allFields`);
    assert.equal(got.body.customNotesText, 'hello');
    assert.equal(got.body.customBudget, 250000);
    assert.equal(got.body.customMoveDate, '2025-07-01');
    assert.equal(got.body.customHeat, 'Hot');
    const bad: [string, unknown][] = [
      ['customBudget', 'lots'],
      ['customBudget', {}],
      ['customMoveDate', '01/07/2025'],
      ['customMoveDate', '2025-02-30x'],
      ['customMoveDate', '2025-02-30'],
      ['customMoveDate', '2025-04-31T10:00:00Z'],
      ['customHeat', 'Lukewarm'],
      ['customHeat', 1],
      ['customNotesText', { a: 1 }],
      ['customNotesText', ['x']],
    ];
    for (const [field, value] of bad) {
      const res = await server.put(key, `/v1/people/${ok.body.id}`, { [field]: value });
      assert.equal(res.status, 400, `${field}=${JSON.stringify(value)}: ${res.text}`);
      assert.equal(res.body.errors[0].field, field);
    }
    const twoBad = await server.put(key, `/v1/people/${ok.body.id}`, {
      customBudget: 'x',
      customHeat: 'y',
    });
    assert.deepEqual(
      twoBad.body.errors.map((e: { field: string }) => e.field),
      ['customBudget', 'customHeat'],
    );
    const unchanged = await server.get(
      key,
      `/v1/people/${ok.body.id}?fields=customBudget,customHeat`,
    );
    assert.deepEqual(unchanged.body, { id: ok.body.id, customBudget: 250000, customHeat: 'Hot' });
  });

  it('null (or an empty string) deletes a value; other values stay', async () => {
    const p = await server.post(key, '/v1/people', {
      firstName: 'Nulls',
      customBudget: 5,
      customHeat: 'Cold',
    });
    const put = await server.put(key, `/v1/people/${p.body.id}`, { customBudget: null });
    assert.equal(put.status, 200, put.text);
    const got = await server.get(key, `/v1/people/${p.body.id}?fields=customBudget,customHeat`);
    assert.deepEqual(got.body, { id: p.body.id, customBudget: null, customHeat: 'Cold' });
    await server.put(key, `/v1/people/${p.body.id}`, { customHeat: '' });
    const row = await server.ctx.db
      .selectFrom('people')
      .select('custom')
      .where('id', '=', p.body.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.custom), {});
  });

  it('deleting a definition removes its values; a new field of the same name starts empty', async () => {
    const def = await server.post(key, '/v1/customFields', { label: 'Short Lived', type: 'text' });
    const keep = await server.post(key, '/v1/customFields', {
      label: 'Short Lived Too',
      type: 'text',
    });
    const p = await server.post(key, '/v1/people', {
      firstName: 'Vals',
      customShortLived: 'a',
      customShortLivedToo: 'b',
    });
    assert.equal((await server.del(key, `/v1/customFields/${def.body.id}`)).status, 204);
    assert.equal((await server.get(key, `/v1/customFields/${def.body.id}`)).status, 404);
    const row = await server.ctx.db
      .selectFrom('people')
      .select('custom')
      .where('id', '=', p.body.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.custom).customShortLived, undefined);
    assert.equal(JSON.parse(row.custom).customShortLivedToo, 'b');
    const refused = await server.put(key, `/v1/people/${p.body.id}`, { customShortLived: 'x' });
    assert.equal(refused.status, 400);
    await server.post(key, '/v1/customFields', { label: 'Short Lived', type: 'text' });
    const fresh = await server.get(
      key,
      `/v1/people/${p.body.id}?fields=customShortLived,customShortLivedToo`,
    );
    assert.deepEqual(fresh.body, {
      id: p.body.id,
      customShortLived: null,
      customShortLivedToo: 'b',
    });
    assert.ok(keep.body.id);
  });

  it('only Owner and Admin change definitions; every role reads them', async () => {
    const admin = await account.addUser('Admin');
    const agent = await account.addUser('Agent');
    const lender = await account.addUser('Lender');
    const created = await server.post(admin.key, '/v1/customFields', {
      label: 'By Admin',
      type: 'number',
    });
    assert.equal(created.status, 201);
    for (const user of [agent, lender]) {
      assert.equal(
        (await server.post(user.key, '/v1/customFields', { label: 'Nope', type: 'text' })).status,
        403,
      );
      assert.equal(
        (await server.put(user.key, `/v1/customFields/${created.body.id}`, { label: 'Nope' }))
          .status,
        403,
      );
      assert.equal((await server.del(user.key, `/v1/customFields/${created.body.id}`)).status, 403);
      assert.equal((await server.get(user.key, '/v1/customFields')).status, 200);
      assert.equal((await server.get(user.key, `/v1/customFields/${created.body.id}`)).status, 200);
    }
    assert.equal(
      (await server.put(admin.key, `/v1/customFields/${created.body.id}`, { label: 'By Admin 2' }))
        .status,
      200,
    );
    assert.equal((await server.del(admin.key, `/v1/customFields/${created.body.id}`)).status, 204);
  });

  it('definitions and values of another account are invisible', async () => {
    const other = await server.newAccount();
    const theirs = await server.post(other.owner.key, '/v1/customFields', {
      label: 'Secret',
      type: 'text',
    });
    assert.equal((await server.get(key, `/v1/customFields/${theirs.body.id}`)).status, 404);
    assert.equal(
      (await server.put(key, `/v1/customFields/${theirs.body.id}`, { label: 'x' })).status,
      404,
    );
    assert.equal((await server.del(key, `/v1/customFields/${theirs.body.id}`)).status, 404);
    const ours = (await server.get(key, '/v1/customFields?limit=100')).body.customfields.map(
      (f: { name: string }) => f.name,
    );
    assert.ok(!ours.includes('customSecret'));
    const res = await server.post(key, '/v1/people', { firstName: 'X', customSecret: 'y' });
    assert.equal(res.status, 400);
    assert.match(res.body.errorMessage, /Unknown custom field 'customSecret'/);
  });
});
