import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';
import { searchPlan, trigramConditions } from '../../src/contacts/people/people.trigram.js';

// PostgreSQL: a text filter's page and total read the trigram index for a rare term and walk the
// account's people for a common one (src/contacts/people/people.trigram.ts). Which way is chosen comes from
// the planner's estimates, which on a shared test database depend on every other suite's people:
// so the choice is tested on the estimates measured at a million people, and both ways are run
// on the database to list exactly the same people, the ones the q= rule matches.
const PEOPLE = 4000;

describe('the PostgreSQL text search plan, from the estimates at 1M people', () => {
  const ways = (people: number, matches: number) => {
    const { page, count } = searchPlan(people, matches);
    return { page, count };
  };

  it('walks for a common term, reads the index for a rare one, and counts as is cheaper', () => {
    // "john": the index expects 10,101 of 1M people (20,000 hold it)
    assert.deepEqual(ways(999_956, 10_101), { page: 'walk', count: 'index' });
    // "son" (15%): walking finds 5,001 after ~33,000 people; the index hands over 204,000
    assert.deepEqual(ways(999_956, 151_508), { page: 'walk', count: 'walk' });
    // "quacken" (0.01%)
    assert.deepEqual(ways(999_956, 100), { page: 'index', count: 'index' });
    // a small account: reading its few matches beats walking it
    assert.deepEqual(ways(40, 2), { page: 'index', count: 'index' });
  });

  it('a total counted from the index and found below the break-even has the page read it too', () => {
    // "212 55": the estimate was 10,101 (as for "john"), 874 people match. The page is then read
    // from the index when the exact total is below the number of matches where both ways cost the
    // same: at 1M people about 3,500, at 100k about 1,100.
    const { pageByIndexBelow } = searchPlan(999_956, 10_101);
    assert.ok(pageByIndexBelow > 874, `${pageByIndexBelow}`);
    assert.equal(ways(999_956, pageByIndexBelow - 50).page, 'index');
    assert.equal(ways(999_956, pageByIndexBelow + 50).page, 'walk');
    const small = searchPlan(100_000, 1_010).pageByIndexBelow;
    assert.equal(ways(100_000, small - 20).page, 'index');
    assert.equal(ways(100_000, small + 20).page, 'walk');
  });
});

describe(
  'GET /v1/people text filters on PostgreSQL: the index for a rare term, a walk for a common one',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs PostgreSQL: set TEST_DATABASE_URL' },
  () => {
    let server: TestServer;
    let account: TestAccount;

    before(async () => {
      server = await startServer();
      account = await server.newAccount();
      // Everyone is a Walker with an email at walkers.example; one of them is also a Quinby. The
      // trigger of migration 0270 writes each person's search text.
      await sql`insert into people (account_id, created_at, updated_at, created_via, name,
          first_name, last_name, emails)
        select ${account.accountId}, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'API',
          case when i = 1234 then 'Ada Quinby-Walker' else 'Bo Walker ' || i end,
          case when i = 1234 then 'Ada' else 'Bo' end,
          case when i = 1234 then 'Quinby-Walker' else 'Walker ' || i end,
          '[{"value":"w' || i || '@walkers.example","type":"home","isPrimary":true}]'
        from generate_series(1, ${PEOPLE}) as i`.execute(server.ctx.db);
    });
    after(async () => server.close());

    /** The names of the account's people the text filters list, read either way. */
    async function listedEachWay(filters: Record<string, string>) {
      const conditions = trigramConditions(account.accountId, filters)!;
      assert.ok(conditions.index, 'the filters have an index condition');
      const read = async (withIndex: boolean) => {
        let query = server.ctx.db
          .selectFrom('people')
          .select('name')
          .where('account_id', '=', account.accountId);
        for (const condition of conditions.exact) query = query.where(condition);
        if (withIndex) query = query.where(conditions.index!);
        return (await query.orderBy('id').execute()).map((row) => row.name);
      };
      return { walked: await read(false), indexed: await read(true) };
    }

    it('a rare term: both ways list the one person, and so does the API', async () => {
      for (const query of [{ q: 'quinby' }, { lastName: 'inby-wal' }] as Record<string, string>[]) {
        assert.deepEqual(await listedEachWay(query), {
          walked: ['Ada Quinby-Walker'],
          indexed: ['Ada Quinby-Walker'],
        });
        const res = await server.get(account.owner.key, `/v1/people?${new URLSearchParams(query)}`);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(
          res.body.people.map((p: { name: string }) => p.name),
          ['Ada Quinby-Walker'],
        );
        assert.equal(res.body._metadata.total, 1);
      }
    });

    it('a common term: both ways list everyone, and the API pages through and counts them all', async () => {
      for (const query of [
        { q: 'walker' },
        { q: 'walkers.example' },
        { name: 'walker' },
        { q: 'walker', sort: 'name' },
      ] as Record<string, string>[]) {
        const label = new URLSearchParams(query).toString();
        const { walked, indexed } = await listedEachWay({ q: query.q, name: query.name });
        assert.equal(walked.length, PEOPLE, label);
        assert.deepEqual(indexed, walked, label);
        let next: string | null = `/v1/people?limit=100&${label}`;
        const seen = new Set<number>();
        let first: { total: number } | null = null;
        while (next) {
          const res = await server.get(account.owner.key, next);
          assert.equal(res.status, 200, res.text);
          first ??= res.body._metadata;
          for (const person of res.body.people) seen.add(person.id);
          next = res.body._metadata.nextLink
            ? new URL(res.body._metadata.nextLink).pathname +
              new URL(res.body._metadata.nextLink).search
            : null;
        }
        assert.equal(seen.size, PEOPLE, label);
        assert.equal(first?.total, PEOPLE, label);
      }
    });

    it('a term with white space is tested on the names and emails themselves', async () => {
      // The search text holds "bo walker 12 bo walker 12" (name, first and last name): "12 bo"
      // runs from the name into the first name, and no single field holds it.
      const res = await server.get(account.owner.key, '/v1/people?q=12%20bo');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body._metadata.total, 0);
      const named = await server.get(account.owner.key, '/v1/people?q=bo%20walker%2012&limit=100');
      assert.equal(named.status, 200, named.text);
      // "Bo Walker 12", "Bo Walker 120"…"129", "Bo Walker 1200"…"1299" (1234 is Ada Quinby).
      assert.equal(named.body._metadata.total, 1 + 10 + 99);
    });
  },
);
