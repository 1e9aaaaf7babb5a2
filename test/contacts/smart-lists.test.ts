import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type ApiResponse,
  PUBLIC_URL,
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';

const T0 = Date.parse('2025-05-01T09:00:00Z');
const ISO_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

const personIds = (res: ApiResponse) =>
  res.body.people.map((p: { id: number }) => p.id) as number[];
const listIds = (res: ApiResponse) =>
  res.body.smartlists
    .map((l: { id: number }) => l.id)
    .sort((a: number, b: number) => a - b) as number[];
const ascending = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('smart lists: saved people searches', () => {
  let server: TestServer;
  let now = T0;
  before(async () => {
    server = await startServer({ clock: { now: () => now } });
  });
  after(async () => server.close());

  describe('CRUD and the list envelope', () => {
    it('creates, reads, lists, updates and deletes a smart list', async () => {
      const { owner } = await server.newAccount();
      const created = await server.post(owner.key, '/v1/smartLists', {
        name: '  Hot buyers ',
        filters: { tags: 'buyer', priceAbove: 250000, stage: 'Lead' },
      });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.body).sort(), [
        'created',
        'filters',
        'id',
        'isShared',
        'name',
        'updated',
        'userId',
      ]);
      assert.equal(created.body.name, 'Hot buyers');
      assert.deepEqual(created.body.filters, { tags: 'buyer', priceAbove: 250000, stage: 'Lead' });
      assert.equal(created.body.userId, owner.id);
      assert.equal(created.body.isShared, false);
      assert.match(created.body.created, ISO_SECONDS);
      assert.equal(created.body.created, '2025-05-01T09:00:00Z');
      assert.equal(created.body.updated, created.body.created);
      const id = created.body.id;

      assert.deepEqual((await server.get(owner.key, `/v1/smartLists/${id}`)).body, created.body);

      const second = await server.post(owner.key, '/v1/smartLists', {
        name: 'Everyone',
        isShared: '1',
      });
      assert.equal(second.status, 201, second.text);
      assert.deepEqual(second.body.filters, {});
      assert.equal(second.body.isShared, true);

      const page = await server.get(owner.key, '/v1/smartLists?limit=1');
      assert.equal(page.status, 200, page.text);
      assert.deepEqual(Object.keys(page.body).sort(), ['_metadata', 'smartlists']);
      assert.equal(page.body._metadata.collection, 'smartlists');
      assert.equal(page.body._metadata.total, 2);
      assert.deepEqual(
        page.body.smartlists.map((l: { id: number }) => l.id),
        [second.body.id],
      );
      const link = new URL(page.body._metadata.nextLink);
      assert.equal(`${link.protocol}//${link.host}${link.pathname}`, `${PUBLIC_URL}/v1/smartLists`);
      const rest = await server.get(owner.key, `${link.pathname}${link.search}`);
      assert.deepEqual(
        rest.body.smartlists.map((l: { id: number }) => l.id),
        [id],
      );
      assert.equal(rest.body._metadata.next, undefined);
      assert.deepEqual(listIds(await server.get(owner.key, '/v1/smartLists?name=HOT')), [id]);
      assert.deepEqual(listIds(await server.get(owner.key, '/v1/smartLists?isShared=true')), [
        second.body.id,
      ]);
      assert.deepEqual(
        (await server.get(owner.key, '/v1/smartLists?sort=name')).body.smartlists.map(
          (l: { name: string }) => l.name,
        ),
        ['Everyone', 'Hot buyers'],
      );

      now += 60_000;
      const updated = await server.put(owner.key, `/v1/smartLists/${id}`, {
        filters: { stageId: '7' },
        isShared: true,
      });
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(
        updated.body.filters,
        { stageId: 7 },
        'filters are replaced whole, numeric strings coerced',
      );
      assert.equal(updated.body.name, 'Hot buyers');
      assert.equal(updated.body.isShared, true);
      assert.equal(updated.body.created, created.body.created);
      assert.equal(updated.body.updated, '2025-05-01T09:01:00Z');
      now += 60_000;
      const unchanged = await server.put(owner.key, `/v1/smartLists/${id}`, { name: 'Hot buyers' });
      assert.equal(
        unchanged.body.updated,
        '2025-05-01T09:01:00Z',
        'a PUT that changes nothing keeps updated',
      );

      assert.equal((await server.del(owner.key, `/v1/smartLists/${id}`)).status, 204);
      assert.equal((await server.get(owner.key, `/v1/smartLists/${id}`)).status, 404);
      assert.equal(
        (await server.put(owner.key, `/v1/smartLists/${id}`, { name: 'x' })).status,
        404,
      );
      assert.equal((await server.del(owner.key, `/v1/smartLists/${id}`)).status, 404);
      assert.equal((await server.get(owner.key, '/v1/smartLists')).body._metadata.total, 1);
    });

    it('is in the OpenAPI document', async () => {
      const doc = (await server.call('GET', '/openapi.json')).body;
      assert.ok(doc.paths['/v1/smartLists']);
      assert.ok(doc.paths['/v1/smartLists/{id}']);
      assert.ok(
        doc.paths['/v1/people'].get.parameters.some(
          (p: { name: string }) => p.name === 'smartListId',
        ),
      );
    });
  });

  describe('filters are those of GET /v1/people, checked on save', () => {
    let key: string;
    before(async () => {
      key = (await server.newAccount()).owner.key;
    });

    const refused = async (
      body: unknown,
      field: RegExp,
      method: 'post' | 'put' = 'post',
      path = '/v1/smartLists',
    ) => {
      const res = await server[method](key, path, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} answered ${res.status}: ${res.text}`);
      assert.match(res.body.errorMessage, field, res.text);
    };

    it('accepts every people filter, with the coercions the query applies', async () => {
      const filters = {
        email: 'a@example.com',
        phone: '555 010 1000',
        tags: 'buyer,seller',
        stage: 'Lead',
        stageId: '3',
        source: 'zillow.com',
        name: 'Ann',
        firstName: 'Ann',
        lastName: 'Lee',
        assignedTo: 'Agnes',
        assignedUserId: 4,
        assignedLenderId: '5',
        createdAfter: '2025-01-01',
        createdBefore: '2025-12-31T23:59:59Z',
        updatedAfter: '2025-01-01',
        updatedBefore: '2026-01-01',
        lastActivityAfter: '2025-02-01',
        lastActivityBefore: '2025-03-01',
        priceAbove: '100000',
        priceBelow: 900000.5,
        includeTrash: '1',
        sort: '-price',
      };
      const res = await server.post(key, '/v1/smartLists', { name: 'All of them', filters });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.filters, {
        ...filters,
        stageId: 3,
        assignedLenderId: 5,
        priceAbove: 100000,
        includeTrash: true,
      });
      const opened = await server.get(key, `/v1/people?smartListId=${res.body.id}`);
      assert.equal(opened.status, 200, opened.text);
    });

    it('unknown filter keys are 400 naming them, pagination and shaping keys included', async () => {
      await refused({ name: 'x', filters: { colour: 'red' } }, /filters\.colour/);
      for (const key of ['limit', 'offset', 'next', 'id', 'fields', 'system', 'smartListId']) {
        await refused(
          {
            name: 'x',
            filters: {
              [key]: key === 'limit' || key === 'offset' || key === 'smartListId' ? 1 : 'a',
            },
          },
          new RegExp(`filters\\.${key}`),
        );
      }
    });

    it('values of the wrong type are 400 naming the filter', async () => {
      await refused({ name: 'x', filters: { stageId: 'abc' } }, /stageId/);
      await refused({ name: 'x', filters: { stageId: -1 } }, /stageId/);
      await refused({ name: 'x', filters: { assignedUserId: 1.5 } }, /assignedUserId/);
      await refused({ name: 'x', filters: { priceAbove: 'cheap' } }, /priceAbove/);
      await refused({ name: 'x', filters: { includeTrash: 'maybe' } }, /includeTrash/);
      await refused({ name: 'x', filters: { email: { value: 'a@example.com' } } }, /email/);
      await refused({ name: 'x', filters: { tags: ['a', 'b'] } }, /tags/);
      await refused(
        { name: 'x', filters: { createdAfter: 'last tuesday' } },
        /filters\.createdAfter/,
      );
      await refused(
        { name: 'x', filters: { lastActivityBefore: 'soon' } },
        /filters\.lastActivityBefore/,
      );
      await refused(
        { name: 'x', filters: { sort: 'colour' } },
        /filters\.sort.*Cannot sort by 'colour'/,
      );
      await refused({ name: 'x', filters: { sort: '-constructor' } }, /filters\.sort/);
      for (const filters of ['stage=Lead', 5, [], null, true])
        await refused({ name: 'x', filters }, /filters/);
      await refused({ name: 'x', filters: { source: 'x'.repeat(20_000) } }, /filters.*too large/);
      // JSON has no Infinity: stored, these would become null and the list could not be opened.
      for (const huge of ['1e400', '-1e400', 'Infinity']) {
        await refused({ name: 'x', filters: { priceBelow: huge } }, /filters\.priceBelow/);
        await refused({ name: 'x', filters: { priceAbove: huge } }, /filters\.priceAbove/);
      }
    });

    it('the list itself is checked too', async () => {
      await refused({ filters: {} }, /name/);
      await refused({ name: '' }, /name/);
      await refused({ name: '   ' }, /'name' must not be blank/);
      await refused({ name: 'x'.repeat(201) }, /name/);
      await refused({ name: 'x', colour: 'red' }, /colour/);
      await refused({ name: 'x', userId: 1 }, /userId/);
      await refused({ name: 'x', isShared: 'perhaps' }, /isShared/);
      assert.equal(
        (await server.post(key, '/v1/smartLists', { name: 'x', system: 'MyCRM' })).status,
        201,
      );
      const list = await server.post(key, '/v1/smartLists', { name: 'To change' });
      const path = `/v1/smartLists/${list.body.id}`;
      await refused({ filters: { colour: 'red' } }, /filters\.colour/, 'put', path);
      await refused({ filters: { createdBefore: 'never' } }, /filters\.createdBefore/, 'put', path);
      await refused({ name: '' }, /name/, 'put', path);
      await refused({ id: 5 }, /id/, 'put', path);
      assert.deepEqual(
        (await server.get(key, path)).body,
        list.body,
        'a refused PUT changes nothing',
      );
    });

    it('accepts a form-encoded body, filters as JSON text', async () => {
      const form = new URLSearchParams({
        name: 'From a form',
        isShared: 'true',
        filters: JSON.stringify({ stage: 'Lead', priceBelow: '5' }),
      }).toString();
      const res = await server.call('POST', '/v1/smartLists', {
        key,
        raw: form,
        contentType: 'application/x-www-form-urlencoded',
      });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.filters, { stage: 'Lead', priceBelow: 5 });
      assert.equal(res.body.isShared, true);
      const bad = await server.call('POST', '/v1/smartLists', {
        key,
        raw: 'name=x&filters=%7Bnot%20json',
        contentType: 'application/x-www-form-urlencoded',
      });
      assert.equal(bad.status, 400, bad.text);
      assert.match(bad.body.errorMessage, /filters/);
      const nul = await server.call('POST', '/v1/smartLists', {
        key,
        raw: `name=x&filters=${encodeURIComponent('{"name":"a\\u0000b"}')}`,
        contentType: 'application/x-www-form-urlencoded',
      });
      assert.equal(nul.status, 400, nul.text);
    });

    it('never answers 500 to bad input', async () => {
      const list = await server.post(key, '/v1/smartLists', { name: 'Target' });
      const bodies: unknown[] = [
        null,
        [],
        'text',
        42,
        {},
        { name: null },
        { name: 42 },
        { name: ['a'] },
        { name: 'x', filters: { stageId: 99999999999 } },
        { name: 'x', filters: { assignedUserId: '1e400' } },
        { name: 'x', filters: { priceAbove: Number('1e400') } },
        '{"name":"x","filters":{"__proto__":{"a":1}}}',
        '{"name":"__proto__","filters":{"constructor":{"prototype":1}}}',
        { name: 'x', filters: { constructor: 'x' } },
        { name: 'x', filters: { email: 'a\u0000b' } },
        { name: 'a\u0000b' },
        { name: 'x', filters: { createdAfter: '+275760-09-14T00:00:01Z' } },
        { name: 'x', filters: { sort: '' } },
        { name: 'x', filters: { tags: '%,_,\\' } },
      ];
      for (const body of bodies) {
        for (const [method, path] of [
          ['POST', '/v1/smartLists'],
          ['PUT', `/v1/smartLists/${list.body.id}`],
        ] as const) {
          const res = await server.call(method, path, {
            key,
            raw: typeof body === 'string' && body.startsWith('{') ? body : JSON.stringify(body),
            contentType: 'application/json',
          });
          assert.ok(
            res.status < 500,
            `${method} ${JSON.stringify(body)} answered ${res.status}: ${res.text}`,
          );
        }
      }
      for (const path of [
        '/v1/smartLists/abc',
        '/v1/smartLists/0',
        '/v1/smartLists/99999999999',
        '/v1/smartLists/-1',
        '/v1/smartLists?userId=abc',
        '/v1/smartLists?sort=bogus',
        '/v1/smartLists?limit=-1',
        '/v1/smartLists?next=garbage',
        '/v1/smartLists?offset=3000',
        '/v1/smartLists?colour=red',
        '/v1/smartLists?name=%25_%5C',
        '/v1/smartLists?id=1,x',
        '/v1/people?smartListId=abc',
        '/v1/people?smartListId=0',
        '/v1/people?smartListId=99999999999',
        '/v1/people?smartListId=1.5',
      ]) {
        const res = await server.get(key, path);
        assert.ok(res.status < 500, `GET ${path} answered ${res.status}: ${res.text}`);
      }
      for (const path of ['/v1/smartLists/abc', '/v1/smartLists/99999999999']) {
        assert.equal((await server.del(key, path)).status, 400);
        assert.equal((await server.put(key, path, { name: 'x' })).status, 400);
      }
      assert.equal((await server.get(key, '/v1/people?smartListId=abc')).status, 400);
    });
  });

  describe('GET /v1/people?smartListId=N', () => {
    let account: TestAccount;
    let key: string;
    let agent: TestUser;
    const id: Record<string, number> = {};
    const people = async (query: string, who = key) => {
      const res = await server.get(who, `/v1/people?${query}`);
      assert.equal(res.status, 200, `${query}: ${res.text}`);
      return res;
    };
    const saveList = async (
      filters: Record<string, unknown>,
      who = key,
      extra: Record<string, unknown> = {},
    ) => {
      const res = await server.post(who, '/v1/smartLists', { name: 'List', filters, ...extra });
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    const named = (...names: string[]) => names.map((n) => id[n]);

    before(async () => {
      account = await server.newAccount();
      key = account.owner.key;
      agent = await account.addUser('Agent');
      const make = async (name: string, body: Record<string, unknown>) => {
        const res = await server.post(key, '/v1/people', { name, ...body });
        assert.equal(res.status, 201, res.text);
        id[name] = res.body.id;
      };
      await make('Alice Archer', {
        tags: ['Buyer'],
        stage: 'Lead',
        price: 300000,
        assignedUserId: agent.id,
      });
      await make('Bob Baker', { tags: ['buyer'], stage: 'Lead', price: 150000 });
      await make('Carol Archer', { tags: ['buyer', 'vip'], stage: 'Prospect', price: 500000 });
      await make('Dan Dean', {
        tags: ['seller'],
        stage: 'Lead',
        price: 400000,
        assignedUserId: agent.id,
      });
      await make('Eve Archer', { tags: ['buyer'], stage: 'Trash', price: 350000 });
      await make('Fay Fisher', {
        tags: ['buyer'],
        stage: 'Lead',
        price: 250000,
        assignedUserId: agent.id,
      });
    });

    it("applies the list's saved filters", async () => {
      const list = await saveList({ tags: 'buyer', priceAbove: 200000 });
      const res = await people(`smartListId=${list}&limit=100`);
      assert.deepEqual(
        ascending(personIds(res)),
        named('Alice Archer', 'Carol Archer', 'Fay Fisher'),
      );
      assert.equal(res.body._metadata.total, 3);
      assert.equal(res.body._metadata.collection, 'people');
      // a saved stage or includeTrash behaves as in the query: Trash shows only when asked for
      const trash = await saveList({ tags: 'buyer', includeTrash: true, priceAbove: 200000 });
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${trash}&limit=100`))),
        named('Alice Archer', 'Carol Archer', 'Eve Archer', 'Fay Fisher'),
      );
      const empty = await saveList({});
      assert.equal((await people(`smartListId=${empty}`)).body._metadata.total, 5);
    });

    it("AND-combines the request's filters with the saved ones; the request's value wins for the same filter", async () => {
      const list = await saveList({ tags: 'buyer', priceAbove: 200000 });
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${list}&name=archer`))),
        named('Alice Archer', 'Carol Archer'),
      );
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${list}&stage=Lead`))),
        named('Alice Archer', 'Fay Fisher'),
      );
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${list}&priceAbove=400000`))),
        named('Carol Archer'),
      );
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${list}&priceAbove=0`))),
        named('Alice Archer', 'Bob Baker', 'Carol Archer', 'Fay Fisher'),
      );
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${list}&tags=seller`))),
        named('Dan Dean'),
      );
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${list}&includeTrash=true`))),
        named('Alice Archer', 'Carol Archer', 'Eve Archer', 'Fay Fisher'),
      );
      assert.deepEqual(
        personIds(await people(`smartListId=${list}&id=${id['Carol Archer']},${id['Dan Dean']}`)),
        named('Carol Archer'),
      );
      // the saved list itself is unchanged by what a request overrode
      assert.deepEqual((await server.get(key, `/v1/smartLists/${list}`)).body.filters, {
        tags: 'buyer',
        priceAbove: 200000,
      });
    });

    it('the saved sort orders the people; a sort in the request replaces it', async () => {
      const list = await saveList({ tags: 'buyer', sort: 'price' });
      assert.deepEqual(
        personIds(await people(`smartListId=${list}`)),
        named('Bob Baker', 'Fay Fisher', 'Alice Archer', 'Carol Archer'),
      );
      assert.deepEqual(
        personIds(await people(`smartListId=${list}&sort=-price`)),
        named('Carol Archer', 'Alice Archer', 'Fay Fisher', 'Bob Baker'),
      );
    });

    it('nextLink keeps carrying smartListId: following it pages through the list once, in order', async () => {
      const list = await saveList({ tags: 'buyer', sort: '-price' });
      const seen: number[] = [];
      let path: string | undefined = `/v1/people?smartListId=${list}&limit=1&fields=name`;
      let pages = 0;
      while (path) {
        const res = await people(path.slice('/v1/people?'.length));
        seen.push(...personIds(res));
        assert.equal(res.body._metadata.total, 4);
        pages += 1;
        const link: string | undefined = res.body._metadata.nextLink;
        if (link) {
          const url = new URL(link);
          assert.equal(url.searchParams.get('smartListId'), String(list));
          assert.equal(url.searchParams.get('fields'), 'name');
          assert.equal(`${url.protocol}//${url.host}`, PUBLIC_URL);
        }
        path = link?.slice(PUBLIC_URL.length);
      }
      assert.equal(pages, 4);
      assert.deepEqual(seen, named('Carol Archer', 'Alice Archer', 'Fay Fisher', 'Bob Baker'));
      // and with a request filter added, the link carries both
      const first = await people(`smartListId=${list}&limit=1&stage=Lead`);
      const url = new URL(first.body._metadata.nextLink);
      assert.equal(url.searchParams.get('smartListId'), String(list));
      assert.equal(url.searchParams.get('stage'), 'Lead');
      assert.deepEqual(personIds(await people(url.search.slice(1))), named('Fay Fisher'));
    });

    it('an unknown list is 404', async () => {
      const list = await saveList({ tags: 'buyer' });
      await server.del(key, `/v1/smartLists/${list}`);
      const res = await server.get(key, `/v1/people?smartListId=${list}`);
      assert.equal(res.status, 404, res.text);
      assert.match(res.body.errorMessage, new RegExp(`Smart list ${list}`));
      assert.equal((await server.get(key, '/v1/people?smartListId=2147483647')).status, 404);
    });

    it('saved filters a later version no longer accepts are 409 with a way out, never a 500', async () => {
      const list = await saveList({ tags: 'buyer' });
      await server.ctx.db
        .updateTable('smart_lists')
        .set({ filters: '{"tags":"buyer","retiredFilter":1}' })
        .where('id', '=', list)
        .execute();
      const res = await server.get(key, `/v1/people?smartListId=${list}`);
      assert.equal(res.status, 409, res.text);
      assert.match(res.body.errorMessage, new RegExp(`PUT /v1/smartLists/${list}`));
      assert.equal(
        (await server.put(key, `/v1/smartLists/${list}`, { filters: { tags: 'buyer' } })).status,
        200,
      );
      assert.equal((await server.get(key, `/v1/people?smartListId=${list}`)).status, 200);
    });

    it("an Agent opening a shared list sees only their own people; another user's private list is 404", async () => {
      const shared = await saveList({ tags: 'buyer' }, key, { isShared: true });
      const privateList = await saveList({ tags: 'buyer' });
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${shared}`, agent.key))),
        named('Alice Archer', 'Fay Fisher'),
      );
      assert.equal(
        (await server.get(agent.key, `/v1/people?smartListId=${privateList}`)).status,
        404,
      );
      // an Agent's own list shared with the Owner: the Owner sees every match
      const agentsList = await saveList({ stage: 'Lead' }, agent.key, { isShared: true });
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${agentsList}`, agent.key))),
        named('Alice Archer', 'Dan Dean', 'Fay Fisher'),
      );
      assert.deepEqual(
        ascending(personIds(await people(`smartListId=${agentsList}`))),
        named('Alice Archer', 'Bob Baker', 'Dan Dean', 'Fay Fisher'),
      );
    });
  });

  describe('sharing, roles and accounts', () => {
    let account: TestAccount;
    let admin: TestUser;
    let agentA: TestUser;
    let agentB: TestUser;
    const list: Record<string, number> = {};

    before(async () => {
      account = await server.newAccount();
      admin = await account.addUser('Admin');
      agentA = await account.addUser('Agent');
      agentB = await account.addUser('Agent');
      const make = async (label: string, who: TestUser, isShared: boolean) => {
        const res = await server.post(who.key, '/v1/smartLists', {
          name: label,
          filters: { stage: 'Lead' },
          isShared,
        });
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.userId, who.id);
        list[label] = res.body.id;
      };
      await make('ownerPrivate', account.owner, false);
      await make('ownerShared', account.owner, true);
      await make('aPrivate', agentA, false);
      await make('aShared', agentA, true);
      await make('bPrivate', agentB, false);
    });

    const visible = async (who: TestUser) =>
      listIds(await server.get(who.key, '/v1/smartLists?limit=100'));
    const labels = (...names: string[]) => ascending(names.map((n) => list[n]));

    it('every user sees their own lists and the shared ones of the account', async () => {
      assert.deepEqual(await visible(agentA), labels('ownerShared', 'aPrivate', 'aShared'));
      assert.deepEqual(await visible(agentB), labels('ownerShared', 'aShared', 'bPrivate'));
      assert.deepEqual(
        await visible(account.owner),
        labels('ownerPrivate', 'ownerShared', 'aShared'),
      );
      assert.deepEqual(await visible(admin), labels('ownerShared', 'aShared'));
      assert.deepEqual(
        listIds(await server.get(agentB.key, `/v1/smartLists?userId=${agentA.id}`)),
        labels('aShared'),
      );
      assert.equal((await server.get(agentB.key, `/v1/smartLists/${list.aShared}`)).status, 200);
      for (const [who, label] of [
        [agentB, 'aPrivate'],
        [agentA, 'ownerPrivate'],
        [admin, 'bPrivate'],
        [account.owner, 'aPrivate'],
      ] as const) {
        assert.equal(
          (await server.get(who.key, `/v1/smartLists/${list[label]}`)).status,
          404,
          `${who.role} reading ${label}`,
        );
      }
    });

    it("an Agent cannot change or delete another user's shared list (403), nor reach a private one (404)", async () => {
      const put = await server.put(agentB.key, `/v1/smartLists/${list.aShared}`, {
        name: 'Hijacked',
      });
      assert.equal(put.status, 403, put.text);
      assert.equal(
        (await server.put(agentB.key, `/v1/smartLists/${list.ownerShared}`, { isShared: false }))
          .status,
        403,
      );
      assert.equal(
        (await server.del(agentB.key, `/v1/smartLists/${list.ownerShared}`)).status,
        403,
      );
      assert.equal(
        (await server.put(agentB.key, `/v1/smartLists/${list.aPrivate}`, { name: 'x' })).status,
        404,
      );
      assert.equal((await server.del(agentB.key, `/v1/smartLists/${list.aPrivate}`)).status, 404);
      assert.equal(
        (await server.get(agentA.key, `/v1/smartLists/${list.aShared}`)).body.name,
        'aShared',
      );
    });

    it('the owner of a list, the Owner and Admins may change and delete it', async () => {
      const own = await server.put(agentA.key, `/v1/smartLists/${list.aShared}`, {
        name: 'A renamed',
        filters: { tags: 'vip' },
      });
      assert.equal(own.status, 200, own.text);
      assert.equal(own.body.userId, agentA.id, 'editing never changes the owner');
      const byAdmin = await server.put(admin.key, `/v1/smartLists/${list.aShared}`, {
        name: 'Renamed by admin',
      });
      assert.equal(byAdmin.status, 200, byAdmin.text);
      assert.equal(byAdmin.body.userId, agentA.id);
      const byOwner = await server.put(account.owner.key, `/v1/smartLists/${list.aShared}`, {
        isShared: false,
      });
      assert.equal(byOwner.status, 200, byOwner.text);
      // unshared again, it is agent A's private list: agent B and the Admin no longer see it
      assert.equal((await server.get(agentB.key, `/v1/smartLists/${list.aShared}`)).status, 404);
      assert.equal((await server.get(admin.key, `/v1/smartLists/${list.aShared}`)).status, 404);
      assert.equal(
        (await server.get(agentA.key, `/v1/smartLists/${list.aShared}`)).body.name,
        'Renamed by admin',
      );
      const temp = await server.post(agentB.key, '/v1/smartLists', {
        name: 'Temp',
        isShared: true,
      });
      assert.equal((await server.del(admin.key, `/v1/smartLists/${temp.body.id}`)).status, 204);
      assert.equal((await server.get(agentB.key, `/v1/smartLists/${temp.body.id}`)).status, 404);
      const mine = await server.post(agentB.key, '/v1/smartLists', { name: 'Mine' });
      assert.equal((await server.del(agentB.key, `/v1/smartLists/${mine.body.id}`)).status, 204);
    });

    it("another account's lists are 404 everywhere, shared or not", async () => {
      const other = await server.newAccount();
      const stranger = await other.addUser('Agent');
      for (const who of [other.owner, stranger]) {
        assert.deepEqual(await visible(who), []);
        for (const id of Object.values(list)) {
          assert.equal((await server.get(who.key, `/v1/smartLists/${id}`)).status, 404);
          assert.equal(
            (await server.put(who.key, `/v1/smartLists/${id}`, { name: 'x' })).status,
            404,
          );
          assert.equal((await server.del(who.key, `/v1/smartLists/${id}`)).status, 404);
          assert.equal((await server.get(who.key, `/v1/people?smartListId=${id}`)).status, 404);
        }
      }
      assert.equal(
        (await server.get(account.owner.key, `/v1/smartLists/${list.ownerShared}`)).body.name,
        'ownerShared',
      );
      const theirs = await server.post(other.owner.key, '/v1/smartLists', {
        name: 'Theirs',
        isShared: true,
      });
      assert.equal(
        (await server.get(account.owner.key, `/v1/smartLists/${theirs.body.id}`)).status,
        404,
      );
      assert.ok(!(await visible(account.owner)).includes(theirs.body.id));
    });

    it('without a key, 401', async () => {
      assert.equal((await server.call('GET', '/v1/smartLists')).status, 401);
      assert.equal(
        (await server.call('POST', '/v1/smartLists', { body: { name: 'x' } })).status,
        401,
      );
    });
  });
});
