import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type ApiResponse,
  type TestAccount,
  type TestServer,
  startServer,
} from '../support/server.js';

/** Every error on /v1 carries errorMessage (and errorCode). */
function assertError(res: ApiResponse, status: number, message?: RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.equal(typeof res.body?.errorMessage, 'string', res.text);
  assert.ok(res.body.errorMessage.length > 0);
  assert.equal(typeof res.body.errorCode, 'string');
  if (message) assert.match(res.body.errorMessage, message);
}

describe('errors and input handling', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
  });
  after(async () => server.close());

  describe('401', () => {
    it('missing key: 401 with WWW-Authenticate', async () => {
      const res = await server.call('GET', '/v1/people/1');
      assertError(res, 401, /API key/);
      assert.match(String(res.headers['www-authenticate']), /^Basic realm=/);
    });

    it('wrong key, unsupported scheme and empty Basic user are 401', async () => {
      assertError(await server.get('not-a-key', '/v1/people'), 401, /Invalid API key/);
      assertError(
        await server.call('GET', '/v1/people', { headers: { authorization: 'Digest abc' } }),
        401,
        /Unsupported authorization scheme/,
      );
      assertError(
        await server.call('GET', '/v1/people', {
          headers: { authorization: 'Bearer not-a-token' },
        }),
        401,
      );
      const empty = `Basic ${Buffer.from(':pw').toString('base64')}`;
      assertError(
        await server.call('GET', '/v1/people', { headers: { authorization: empty } }),
        401,
      );
    });

    it('accepts any password after the key', async () => {
      const auth = `Basic ${Buffer.from(`${key}:whatever`).toString('base64')}`;
      const res = await server.call('GET', '/v1/people', { headers: { authorization: auth } });
      assert.equal(res.status, 200, res.text);
    });
  });

  describe('400 validation', () => {
    it('names every unknown body field in the real API words, with an errors list', async () => {
      const res = await server.post(key, '/v1/people', { firstName: 'A', favouriteColour: 'blue' });
      assertError(res, 400, /favouriteColour/);
      assert.equal(res.body.errorMessage, 'Invalid fields in the request body: favouriteColour.');
      const two = await server.post(key, '/v1/people', { a: 1, firstName: 'A', b: 2 });
      assert.equal(two.body.errorMessage, 'Invalid fields in the request body: a, b.');
      assert.deepEqual(
        two.body.errors.map((e: { field: string }) => e.field),
        ['a', 'b'],
      );
      assert.equal(res.body.errorCode, 'VALIDATION_FAILED');
      assert.deepEqual(res.body.errors, [
        { field: 'favouriteColour', message: "Unknown field 'favouriteColour'" },
      ]);
    });

    it('names an unknown field inside a nested object', async () => {
      const res = await server.post(key, '/v1/people', {
        emails: [{ value: 'a@example.com', label: 'x' }],
      });
      assertError(res, 400);
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field.endsWith('label')),
        res.text,
      );
    });

    it('accepts `system` in a body and custom… keys are checked against definitions, not refused as unknown fields', async () => {
      const ok = await server.post(key, '/v1/people', { firstName: 'Sys', system: 'MyCrm' });
      assert.equal(ok.status, 201, ok.text);
      const custom = await server.post(key, '/v1/people', {
        firstName: 'C',
        customNotDefined: 'x',
      });
      assertError(custom, 400, /Unknown custom field 'customNotDefined'/);
      assert.equal(custom.body.errors[0].field, 'customNotDefined');
    });

    it('reports a wrong type with the field name', async () => {
      const res = await server.post(key, '/v1/people', { firstName: 'A', price: 'lots' });
      assertError(res, 400, /price/);
      assert.ok(Array.isArray(res.body.errors));
    });

    it('a value matching none of the accepted forms gets one message listing them', async () => {
      const res = await server.post(key, '/v1/people', { firstName: 'A', contacted: 'maybe' });
      assertError(res, 400);
      assert.deepEqual(res.body.errors, [
        {
          field: 'contacted',
          message: `Field 'contacted' must be one of: a boolean, 0, 1, "0", "1", "true", "false"`,
        },
      ]);
      assert.equal(res.body.errorMessage, res.body.errors[0].message);
    });

    it('refuses an invalid email and phone naming the field', async () => {
      const email = await server.post(key, '/v1/people', { emails: ['not-an-email'] });
      assertError(email, 400, /not a valid email/);
      assert.equal(email.body.errors[0].field, 'emails');
      const phone = await server.post(key, '/v1/people', { phones: ['x'] });
      assertError(phone, 400, /not a valid phone/);
    });

    it('unknown query arguments are ignored; bad known ones and bad ids are 400', async () => {
      const ignored = await server.get(key, '/v1/people?colour=blue&pond=134');
      assert.equal(ignored.status, 200, ignored.text);
      assertError(await server.get(key, '/v1/people?pond=1&limit=abc'), 400, /limit/);
      assertError(await server.get(key, '/v1/people/abc'), 400, /id/);
      assertError(await server.get(key, '/v1/people/0'), 400);
      assertError(await server.get(key, '/v1/people?id=1,x'), 400, /comma-separated list of ids/);
    });

    it('ids beyond 32 bits are 400 on every database, not a server error', async () => {
      assertError(await server.get(key, '/v1/people/99999999999'), 400);
      assertError(await server.put(key, '/v1/people/99999999999', { firstName: 'x' }), 400);
      assertError(await server.del(key, '/v1/people/99999999999'), 400);
      assertError(await server.get(key, '/v1/people?id=99999999999999999999'), 400);
      assertError(await server.get(key, '/v1/people?stageId=99999999999'), 400);
      assertError(await server.post(key, '/v1/people', { assignedUserId: 1e20 }), 400);
      assertError(await server.post(key, '/v1/people', { collaborators: [4294967296] }), 400);
    });

    it('a NUL character in body text is 400 on every database', async () => {
      assertError(await server.post(key, '/v1/people', { firstName: 'a\u0000b' }), 400, /NUL/);
      const form = await server.call('POST', '/v1/people', {
        key,
        raw: 'firstName=a%00b',
        contentType: 'application/x-www-form-urlencoded',
      });
      assertError(form, 400, /NUL/);
    });

    it('sort by an inherited property name is refused, not evaluated', async () => {
      for (const sort of ['constructor', '__proto__', 'toString', '-hasOwnProperty']) {
        assertError(await server.get(key, `/v1/people?sort=${sort}`), 400, /Cannot sort by/);
      }
    });

    it('a malformed URL answers in the API error shape', async () => {
      const res = await server.get(key, '/v1/people/%');
      assertError(res, 400);
    });
  });

  describe('bodies', () => {
    it('malformed JSON is 400', async () => {
      const res = await server.call('POST', '/v1/people', {
        key,
        raw: '{"firstName": "A",',
        contentType: 'application/json',
      });
      assertError(res, 400, /Malformed JSON/);
    });

    it('an empty body where one is required is 400', async () => {
      assertError(
        await server.call('POST', '/v1/people', { key, raw: '', contentType: 'application/json' }),
        400,
      );
      assertError(await server.call('PUT', '/v1/people/1', { key }), 400);
    });

    it('a JSON array where an object is expected is 400', async () => {
      assertError(await server.post(key, '/v1/people', [{ firstName: 'A' }]), 400);
    });

    it('a body over 1 MiB is 413', async () => {
      const raw = JSON.stringify({ background: 'x'.repeat(1024 * 1024 + 10) });
      const res = await server.call('POST', '/v1/people', {
        key,
        raw,
        contentType: 'application/json',
      });
      assertError(res, 413, /too large/);
    });

    it('a body just under 1 MiB is read (and then validated)', async () => {
      const raw = JSON.stringify({ background: 'x'.repeat(1024 * 1000) });
      const res = await server.call('POST', '/v1/people', {
        key,
        raw,
        contentType: 'application/json',
      });
      assertError(res, 400, /background/); // maxLength, not 413
    });

    it('a body that is neither JSON nor a form is 415', async () => {
      assertError(
        await server.call('POST', '/v1/people', {
          key,
          raw: 'hello there',
          contentType: 'text/plain',
        }),
        415,
        /JSON/,
      );
      assertError(
        await server.call('POST', '/v1/people', {
          key,
          raw: Buffer.from([0xff, 0xfe, 0x00, 0x01]),
          contentType: 'application/octet-stream',
        }),
        415,
      );
    });

    it('JSON under a wrong content type is parsed', async () => {
      for (const contentType of [
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/octet-stream',
        'application/json; charset=latin1',
      ]) {
        const res = await server.call('POST', '/v1/people', {
          key,
          raw: JSON.stringify({ firstName: 'Wrong', lastName: contentType }),
          contentType,
        });
        assert.equal(res.status, 201, `${contentType}: ${res.text}`);
        assert.equal(res.body.lastName, contentType);
      }
    });

    it('JSON without any content type is parsed', async () => {
      const res = await server.call('POST', '/v1/people', { key, raw: '{"firstName":"NoType"}' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.firstName, 'NoType');
    });

    it('form-encoded bodies are accepted, with numbers, booleans and repeated keys coerced', async () => {
      const raw =
        'firstName=Form&lastName=Body&price=250000&contacted=1&tags=a&tags=b&emails=form%40example.com&phones=555-010-2030';
      const res = await server.call('POST', '/v1/people', {
        key,
        raw,
        contentType: 'application/x-www-form-urlencoded',
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.name, 'Form Body');
      assert.equal(res.body.price, 250000);
      assert.equal(res.body.contacted, 1);
      assert.deepEqual(res.body.tags, ['a', 'b']);
      assert.equal(res.body.emails[0].value, 'form@example.com');
      assert.equal(res.body.phones[0].normalized, '5550102030');
    });

    it('a form key named __proto__ is an unknown field, not a prototype', async () => {
      const res = await server.call('POST', '/v1/people', {
        key,
        raw: '__proto__=x&__proto__=y',
        contentType: 'application/x-www-form-urlencoded',
      });
      assertError(res, 400, /__proto__/);
    });

    it('numeric strings are coerced where integers are expected', async () => {
      const agent = await account.addUser('Agent');
      const res = await server.post(key, '/v1/people', {
        firstName: 'Num',
        price: '1500.5',
        assignedUserId: String(agent.id),
        contacted: 'true',
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.price, 1500.5);
      assert.equal(res.body.assignedUserId, agent.id);
      assert.equal(res.body.contacted, 1);
      const list = await server.get(key, `/v1/people?assignedUserId=${agent.id}&limit=5`);
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.people.map((p: { id: number }) => p.id),
        [res.body.id],
      );
    });
  });

  describe('403, 404, 409', () => {
    it('403 when the role may not act', async () => {
      const agent = await account.addUser('Agent');
      assertError(
        await server.post(agent.key, '/v1/customFields', { label: 'X', type: 'text' }),
        403,
        /Owner or Admin/,
      );
    });

    it('404 for an unknown route and for a missing record', async () => {
      assertError(await server.get(key, '/v1/nothingHere'), 404, /No route/);
      assertError(
        await server.get(key, '/v1/people/2147483000'),
        404,
        /Person 2147483000 not found/,
      );
    });

    it('409 maps a unique violation (two custom fields racing for one key cannot both win)', async () => {
      // The API picks a free key for each label, so the conflict is only reachable through racing
      // writers; both requests either succeed with distinct keys or one gets 409, never a 500.
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          server.post(key, '/v1/customFields', { label: 'Race Field', type: 'text' }),
        ),
      );
      for (const r of results) assert.ok(r.status === 201 || r.status === 409, r.text);
      const names = results.filter((r) => r.status === 201).map((r) => r.body.name);
      assert.equal(new Set(names).size, names.length);
      for (const r of results.filter((x) => x.status === 409)) assertError(r, 409);
    });
  });

  describe('no input produces a 500', () => {
    // Deterministic pseudo-random generator so that a failure can be reproduced.
    let seed = 20240601;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(items: T[]): T => items[Math.floor(rand() * items.length)];
    const fields = [
      'name',
      'firstName',
      'lastName',
      'stage',
      'stageId',
      'source',
      'sourceUrl',
      'price',
      'background',
      'contacted',
      'assignedTo',
      'assignedUserId',
      'assignedLenderName',
      'assignedLenderId',
      'emails',
      'phones',
      'addresses',
      'tags',
      'collaborators',
      'system',
      'customThing',
      'unknown',
      '__proto__',
      'constructor',
      '',
    ];
    const scalar = (): unknown =>
      pick<() => unknown>([
        () => null,
        () => true,
        () => false,
        () => 0,
        () => -1,
        () => 1e308,
        () => -1e-9,
        () => 2 ** 31,
        () => 2 ** 53 + 1,
        () => '',
        () => ' ',
        () => '0',
        () => '1',
        () => 'true',
        () => 'Lead',
        () => 'Trash',
        () => 'x'.repeat(400),
        () => 'a@b.co',
        () => '+1 (555) 010-2030',
        () => '日本語',
        () => '😀',
        () => "'; drop table people; --",
        () => '%_\\',
        () => '2024-02-30',
        () => Math.floor(rand() * 1e6),
      ])();
    const value = (depth = 0): unknown => {
      const r = rand();
      if (depth > 2 || r < 0.6) return scalar();
      if (r < 0.8) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
      const obj: Record<string, unknown> = {};
      for (let i = 0; i < 3; i++)
        obj[pick(['value', 'type', 'isPrimary', 'street', 'city', 'id', 'x'])] = value(depth + 1);
      return obj;
    };
    const body = (): unknown => {
      if (rand() < 0.05) return value();
      const obj: Record<string, unknown> = {};
      const n = 1 + Math.floor(rand() * 4);
      for (let i = 0; i < n; i++) obj[pick(fields)] = value();
      return obj;
    };
    const queryValues = [
      '',
      '-1',
      'abc',
      '1.5',
      '0',
      '101',
      '2001',
      '99999999999',
      '1,2,x',
      '%25',
      '%00',
      '2024-01-01',
      'Trash',
      'allFields',
      '-price',
      'name',
      'constructor',
      '__proto__',
      'true',
      '1e400',
      'Infinity',
      'NaN',
      '%E0%A4%A',
    ];
    const queryKeys = [
      'limit',
      'offset',
      'next',
      'id',
      'email',
      'phone',
      'stage',
      'stageId',
      'source',
      'name',
      'tags',
      'assignedTo',
      'assignedUserId',
      'createdAfter',
      'updatedBefore',
      'lastActivityAfter',
      'priceAbove',
      'priceBelow',
      'includeTrash',
      'sort',
      'fields',
      'system',
    ];

    it('survives 300 random bodies on POST and PUT /v1/people', async () => {
      const target = await server.post(key, '/v1/people', { firstName: 'Fuzz' });
      const failures: string[] = [];
      for (let i = 0; i < 300; i++) {
        const payload = body();
        const res =
          i % 2 === 0
            ? await server.post(
                key,
                `/v1/people${rand() < 0.2 ? '?deduplicate=true' : ''}`,
                payload,
              )
            : await server.put(
                key,
                `/v1/people/${target.body.id}${rand() < 0.2 ? '?mergeTags=1' : ''}`,
                payload,
              );
        if (
          res.status >= 500 ||
          typeof (res.status >= 400 ? res.body?.errorMessage : res.body?.id) === 'undefined'
        ) {
          failures.push(
            `${res.status} ${JSON.stringify(payload).slice(0, 200)} → ${res.text.slice(0, 200)}`,
          );
        }
      }
      assert.deepEqual(failures, []);
    });

    it('survives 300 random query strings on GET /v1/people and checkDuplicate', async () => {
      const failures: string[] = [];
      for (let i = 0; i < 300; i++) {
        const parts = Array.from(
          { length: 1 + Math.floor(rand() * 3) },
          () => `${pick(queryKeys)}=${pick(queryValues)}`,
        );
        const path = `${rand() < 0.15 ? '/v1/people/checkDuplicate' : '/v1/people'}?${parts.join('&')}`;
        const res = await server.get(key, path);
        if (res.status >= 500 || (res.status >= 400 && typeof res.body?.errorMessage !== 'string'))
          failures.push(`${res.status} ${path} → ${res.text.slice(0, 200)}`);
      }
      assert.deepEqual(failures, []);
    });

    it('survives forged cursors', async () => {
      const forged = [
        'not-base64!!',
        '',
        'e30',
        Buffer.from('null').toString('base64url'),
        Buffer.from('[]').toString('base64url'),
        Buffer.from(JSON.stringify({ s: '-id', id: 1e300, o: 1 })).toString('base64url'),
        Buffer.from(JSON.stringify({ s: '-id', id: -5, o: -1 })).toString('base64url'),
        Buffer.from(JSON.stringify({ s: 'name', id: 5, o: 1, v: { a: 1 } })).toString('base64url'),
        Buffer.from(JSON.stringify({ s: 'name', id: 5, o: 1, v: [1] })).toString('base64url'),
        Buffer.from(JSON.stringify({ s: '-price', id: 5, o: 1, v: 'abc' })).toString('base64url'),
      ];
      for (const next of forged) {
        for (const sort of ['', '&sort=name', '&sort=-price']) {
          const res = await server.get(key, `/v1/people?next=${encodeURIComponent(next)}${sort}`);
          assert.ok(res.status < 500, `${next} ${sort}: ${res.text}`);
        }
      }
      const bad = await server.get(key, `/v1/people?sort=name&next=${forged[7]}`);
      assertError(bad, 400, /Invalid 'next' cursor/);
    });
  });
});
