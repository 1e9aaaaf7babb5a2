import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyRequest } from 'fastify';
import { PUBLIC_URL, type TestAccount, type TestServer, startServer } from '../support/server.js';
import { paginate, readPage } from '../../src/platform/http/pagination.js';

describe('pagination (on /v1/people, shared by every list)', () => {
  let server: TestServer;
  let account: TestAccount;
  let key: string;
  /** ids of the 25 seeded people, ascending */
  let seeded: number[] = [];

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    key = account.owner.key;
    for (let i = 0; i < 25; i++) {
      const res = await server.post(key, '/v1/people', {
        firstName: `P${String(i).padStart(2, '0')}`,
        lastName: i % 2 ? 'Odd' : 'Even',
        price: (i * 7) % 10,
        tags: ['seed'],
      });
      seeded.push(res.body.id);
    }
    seeded = seeded.sort((a, b) => a - b);
  });
  after(async () => server.close());

  it('envelope: _metadata and one array named after the collection; default limit 10, id descending', async () => {
    const res = await server.get(key, '/v1/people');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['_metadata', 'people']);
    const m = res.body._metadata;
    assert.equal(m.collection, 'people');
    assert.equal(m.offset, 0);
    assert.equal(m.limit, 10);
    assert.equal(m.total, 25);
    assert.equal(typeof m.next, 'string');
    assert.deepEqual(
      res.body.people.map((p: { id: number }) => p.id),
      [...seeded].reverse().slice(0, 10),
    );
  });

  it('ifFew: an exact count below its bound has the page read the other query', async () => {
    // The people list's PostgreSQL text search offers the page read from the trigram index as
    // `ifFew` (people.trigram.ts); here the two queries differ on purpose, to see which one ran.
    const { db } = server.ctx;
    const everyone = db
      .selectFrom('people')
      .select('people.id')
      .where('people.account_id', '=', account.accountId);
    const odd = everyone.where('people.last_name', '=', 'Odd');
    const request = { url: '/v1/people', query: {} } as unknown as FastifyRequest;
    const page = (below: number) =>
      paginate<{ id: number }>(request, {
        collection: 'people',
        query: everyone,
        ifFew: { query: odd, below },
        page: readPage({ limit: 100 }),
        sort: { name: '-id', expression: 'people.id', descending: true },
        idExpression: 'people.id',
        publicUrl: PUBLIC_URL,
        db,
      });
    const oddIds = seeded.filter((_, i) => i % 2).reverse();
    const few = await page(26);
    assert.equal(few.metadata.total, 25);
    assert.deepEqual(
      few.rows.map((r) => r.id),
      oddIds,
    );
    const many = await page(25);
    assert.equal(many.metadata.total, 25);
    assert.deepEqual(
      many.rows.map((r) => r.id),
      [...seeded].reverse(),
    );
  });

  it('limit above 100 counts as 100; limit 0 returns only the total', async () => {
    const res = await server.get(key, '/v1/people?limit=500');
    assert.equal(res.status, 200);
    assert.equal(res.body._metadata.limit, 100);
    assert.equal(res.body.people.length, 25);
    assert.equal(res.body._metadata.next, undefined);
    assert.equal(res.body._metadata.nextLink, undefined);
    const zero = await server.get(key, '/v1/people?limit=0');
    assert.equal(zero.status, 200);
    assert.deepEqual(zero.body.people, []);
    assert.equal(zero.body._metadata.total, 25);
  });

  it('negative or non-numeric limit and offset are 400', async () => {
    for (const q of ['limit=-1', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x', 'limit=']) {
      const res = await server.get(key, `/v1/people?${q}`);
      assert.equal(res.status, 400, `${q}: ${res.text}`);
      assert.match(res.body.errorMessage, /limit|offset/);
    }
  });

  it('offset skips records; numeric strings work', async () => {
    const res = await server.get(key, '/v1/people?limit=5&offset=20');
    assert.equal(res.body._metadata.offset, 20);
    assert.deepEqual(
      res.body.people.map((p: { id: number }) => p.id),
      [...seeded].reverse().slice(20, 25),
    );
    assert.equal(res.body._metadata.next, undefined);
    const beyond = await server.get(key, '/v1/people?offset=2000');
    assert.equal(beyond.status, 200);
    assert.deepEqual(beyond.body.people, []);
  });

  it('offset past 2000 is 400 "Deep pagination disabled, use \'nextLink\' url"', async () => {
    const res = await server.get(key, '/v1/people?offset=2001');
    assert.equal(res.status, 400);
    assert.equal(res.body.errorMessage, "Deep pagination disabled, use 'nextLink' url");
  });

  it('nextLink is a complete URL on the public base carrying every filter; with next, offset is ignored', async () => {
    const res = await server.get(
      key,
      '/v1/people?limit=3&offset=2&lastName=Odd&tags=seed&sort=-id&fields=firstName,lastName&system=Crm',
    );
    assert.equal(res.status, 200, res.text);
    const link = new URL(res.body._metadata.nextLink);
    assert.equal(`${link.protocol}//${link.host}`, PUBLIC_URL);
    assert.equal(link.pathname, '/v1/people');
    assert.equal(link.searchParams.get('lastName'), 'Odd');
    assert.equal(link.searchParams.get('tags'), 'seed');
    assert.equal(link.searchParams.get('sort'), '-id');
    assert.equal(link.searchParams.get('fields'), 'firstName,lastName');
    assert.equal(link.searchParams.get('system'), 'Crm');
    assert.equal(link.searchParams.get('limit'), '3');
    assert.equal(link.searchParams.get('offset'), null);
    assert.equal(link.searchParams.get('next'), res.body._metadata.next);
    const second = await server.get(key, `${link.pathname}${link.search}&offset=5000`);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body._metadata.offset, 5);
    const odd = [...seeded].reverse().filter((_, i) => (seeded.length - 1 - i) % 2 === 1);
    assert.deepEqual(
      second.body.people.map((p: { id: number }) => p.id),
      odd.slice(5, 8),
    );
    for (const person of second.body.people)
      assert.deepEqual(Object.keys(person).sort(), ['firstName', 'id', 'lastName']);
  });

  it('following nextLink visits every record once, in order', async () => {
    const collected: number[] = [];
    let path: string | undefined = '/v1/people?limit=4';
    let pages = 0;
    while (path) {
      const res = await server.get(key, path);
      assert.equal(res.status, 200, res.text);
      collected.push(...res.body.people.map((p: { id: number }) => p.id));
      pages += 1;
      path = res.body._metadata.nextLink?.slice(PUBLIC_URL.length);
      if (path) assert.equal(res.body.people.length, 4);
    }
    assert.equal(pages, 7);
    assert.deepEqual(collected, [...seeded].reverse());
  });

  it('the cursor stays correct while records are inserted and deleted between pages', async () => {
    const team = await server.newAccount();
    const k = team.owner.key;
    const original: number[] = [];
    for (let i = 0; i < 30; i++)
      original.push((await server.post(k, '/v1/people', { firstName: `C${i}` })).body.id);
    const deleted = new Set<number>();
    const inserted = new Set<number>();
    const seen: number[] = [];
    let path: string | undefined = '/v1/people?limit=5';
    let round = 0;
    while (path) {
      const res = await server.get(k, path);
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.people.map((p: { id: number }) => p.id));
      path = res.body._metadata.nextLink?.slice(PUBLIC_URL.length);
      // between pages: add two new people and delete one already seen and one not yet seen
      for (let j = 0; j < 2; j++)
        inserted.add(
          (await server.post(k, '/v1/people', { firstName: `New${round}-${j}` })).body.id,
        );
      const seenVictim = original.find((id) => seen.includes(id) && !deleted.has(id));
      const unseenVictim = [...original]
        .reverse()
        .find(
          (id) =>
            !seen.includes(id) &&
            !deleted.has(id) &&
            id !== Math.min(...original.filter((x) => !deleted.has(x))),
        );
      for (const victim of [seenVictim, round % 2 === 0 ? unseenVictim : undefined]) {
        if (victim === undefined) continue;
        assert.equal((await server.del(k, `/v1/people/${victim}`)).status, 204);
        deleted.add(victim);
      }
      round += 1;
      assert.ok(round < 50, 'pagination does not terminate');
    }
    assert.equal(new Set(seen).size, seen.length, 'no duplicates');
    const survivors = original.filter((id) => !deleted.has(id));
    for (const id of survivors)
      assert.ok(seen.includes(id), `record ${id} that existed throughout was skipped`);
    // newest first: new records (higher ids) never appear after the cursor moved past them
    for (const id of seen)
      assert.ok(!inserted.has(id), 'records inserted after the first page are above the cursor');
    assert.deepEqual(
      seen.filter((id) => original.includes(id)),
      [...seen.filter((id) => original.includes(id))].sort((a, b) => b - a),
    );
  });

  it('cursors work with sorted lists, ties broken by id, under inserts', async () => {
    const team = await server.newAccount();
    const k = team.owner.key;
    const names = ['Bea', 'Al', 'Cy', 'Al', 'Di', 'Bea', 'Al', 'Ed', 'Cy', 'Al', 'Fay', 'Bea'];
    const people: { id: number; name: string }[] = [];
    for (const n of names) {
      const res = await server.post(k, '/v1/people', { name: n, price: n.length });
      people.push({ id: res.body.id, name: n });
    }
    const expected = [...people]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id))
      .map((p) => p.id);
    const seen: number[] = [];
    let path: string | undefined = '/v1/people?sort=name&limit=3';
    while (path) {
      const res = await server.get(k, path);
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.people.map((p: { id: number }) => p.id));
      path = res.body._metadata.nextLink?.slice(PUBLIC_URL.length);
      await server.post(k, '/v1/people', { name: 'Aaron' }); // sorts before the cursor: never shown
    }
    assert.deepEqual(seen, expected);

    const desc: number[] = [];
    path = '/v1/people?sort=-name&limit=4&name=a';
    while (path) {
      const res = await server.get(k, path);
      desc.push(...res.body.people.map((p: { id: number; name: string }) => p.id));
      path = res.body._metadata.nextLink?.slice(PUBLIC_URL.length);
    }
    const withA = people.filter((p) => p.name.toLowerCase().includes('a'));
    const aarons = (await server.get(k, '/v1/people?name=aaron&limit=100')).body.people.map(
      (p: { id: number }) => p.id,
    );
    const descExpected = [
      ...withA.map((p) => ({ ...p })),
      ...aarons.map((id: number) => ({ id, name: 'Aaron' })),
    ]
      .sort((a, b) => (a.name > b.name ? -1 : a.name < b.name ? 1 : b.id - a.id))
      .map((p) => p.id);
    assert.deepEqual(desc, descExpected);
  });

  it('a cursor made for another sort order is refused', async () => {
    const res = await server.get(key, '/v1/people?limit=2&sort=name');
    const next = res.body._metadata.next;
    const other = await server.get(key, `/v1/people?limit=2&sort=-price&next=${next}`);
    assert.equal(other.status, 400);
    assert.match(other.body.errorMessage, /different sort order/);
    const garbage = await server.get(key, '/v1/people?next=garbage');
    assert.equal(garbage.status, 400);
    assert.match(garbage.body.errorMessage, /Invalid 'next' cursor/);
  });

  it('pages reached with next report the total counted when the listing began', async () => {
    const other = await server.newAccount();
    for (let i = 0; i < 5; i++)
      await server.post(other.owner.key, '/v1/people', { firstName: `T${i}` });
    const first = await server.get(other.owner.key, '/v1/people?limit=2');
    assert.equal(first.body._metadata.total, 5);
    await server.post(other.owner.key, '/v1/people', { firstName: 'Late' });
    const second = await server.get(
      other.owner.key,
      `/v1/people?limit=2&next=${encodeURIComponent(first.body._metadata.next)}`,
    );
    assert.equal(second.body._metadata.total, 5);
    assert.equal(second.body._metadata.offset, 2);
    const fresh = await server.get(other.owner.key, '/v1/people?limit=2');
    assert.equal(fresh.body._metadata.total, 6, 'a new listing counts again');
  });
});
