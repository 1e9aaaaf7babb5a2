import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';

// `next` cursors stay correct for every sort while people are created and deleted between pages:
// everyone who existed throughout is listed exactly once, in the order of the sort, nobody twice,
// and nobody deleted before their page came.
const SORTS = [
  'id',
  'created',
  'updated',
  'lastActivity',
  'name',
  'firstName',
  'lastName',
  'price',
];

describe('GET /v1/people: next cursors under concurrent inserts and deletes', () => {
  let server: TestServer;
  let account: TestAccount;
  let clock = Date.parse('2025-01-01T00:00:00Z');
  let serial = 0;

  before(async () => {
    server = await startServer({ clock: { now: () => clock } });
    account = await server.newAccount();
  });
  after(async () => server.close());

  /** A person with values that collide often (ties need the id tie-break) and NULLs. */
  async function create(): Promise<number> {
    serial += 1;
    // Several people share a second: created/updated ties too.
    if (serial % 3 === 0) clock += 1000;
    const res = await server.post(account.owner.key, '/v1/people', {
      firstName: ['Ann', 'Bob', 'Cy'][serial % 3],
      lastName: ['Ames', 'Baker', 'Ames', 'Cole'][serial % 4],
      price: serial % 4 === 0 ? null : (serial % 5) * 1000,
    });
    assert.equal(res.status, 201, res.text);
    const id = res.body.id as number;
    if (serial % 3 !== 0) {
      await server.ctx.db
        .updateTable('people')
        .set({ last_activity: `2025-02-0${(serial % 4) + 1}T00:00:00Z` })
        .where('id', '=', id)
        .execute();
    }
    return id;
  }
  const remove = async (id: number) =>
    assert.equal((await server.del(account.owner.key, `/v1/people/${id}`)).status, 204);

  async function listAll(sort: string, search = ''): Promise<number[]> {
    const res = await server.get(account.owner.key, `/v1/people?limit=100&sort=${sort}${search}`);
    assert.equal(res.status, 200, res.text);
    return res.body.people.map((p: { id: number }) => p.id);
  }

  /** Pages through GET /v1/people?sort=…(&search) four at a time, writing between pages. */
  async function checkCursors(sort: string, search = '') {
    const present = new Set(await listAll(sort, search));
    const deletedUnseen = new Set<number>();
    const seen: number[] = [];
    let next: string | undefined;
    let pages = 0;
    do {
      const res = await server.get(
        account.owner.key,
        `/v1/people?limit=4&sort=${sort}${search}${next ? `&next=${next}` : ''}`,
      );
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.people.map((p: { id: number }) => p.id));
      next = res.body._metadata.next;
      // Meanwhile: two people arrive, one not yet listed leaves, and one already listed leaves.
      await create();
      await create();
      const unseen = [...present].find((id) => !seen.includes(id) && !deletedUnseen.has(id));
      if (unseen !== undefined && pages % 2 === 0) {
        await remove(unseen);
        deletedUnseen.add(unseen);
      }
      const listed = seen.find((id) => present.has(id));
      if (listed !== undefined && pages % 2 === 1) {
        await remove(listed);
        present.delete(listed);
      }
      pages += 1;
    } while (next && pages < 50);
    const label = `${sort}${search}`;
    assert.ok(pages > 1, `${label}: a single page tests no cursor`);
    assert.equal(new Set(seen).size, seen.length, `${label}: someone listed twice`);
    for (const id of deletedUnseen) {
      assert.ok(!seen.includes(id), `${label}: ${id} was listed after being deleted`);
      present.delete(id);
    }
    const stillThere = await listAll(sort, search);
    const throughout = stillThere.filter((id) => present.has(id));
    const survivorsSeen = seen.filter((id) => stillThere.includes(id) && present.has(id));
    // Everyone present throughout, exactly once, in the order of the sort.
    assert.deepEqual(survivorsSeen, throughout, `${label}: listing differs`);
  }

  /** Keeps the account small: drops all but the newest `count` people. */
  async function keepNewest(count: number) {
    for (const id of (await listAll('id')).slice(0, -count)) await remove(id);
  }

  it('every sort, both directions', async () => {
    for (let i = 0; i < 14; i++) await create();
    for (const field of SORTS)
      for (const sort of [field, `-${field}`]) {
        await checkCursors(sort);
        await keepNewest(14);
      }
  });

  // On SQLite a page sorted by id is read from the text index's matches in rowid order
  // (people.search.ts), and its cursor is that rowid.
  it('with a text search (q=ann: a third of the people), sorted by id and by name', async () => {
    for (let i = 0; i < 16; i++) await create();
    for (const sort of ['id', '-id', 'name']) {
      await checkCursors(sort, '&q=ann');
      await keepNewest(30);
    }
  });
});
