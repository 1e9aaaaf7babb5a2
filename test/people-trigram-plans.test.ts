import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { type TestAccount, type TestServer, startServer } from './helpers.js';
import { buildPeopleListQuery, peopleSort } from '../src/people/people.list.js';
import { pageQueries, readPage } from '../src/http/pagination.js';
import type { AuthUser } from '../src/http/auth.js';

// PostgreSQL: a text filter's page and total read the trigram index for a rare term and walk the
// account's people for a common one (people.trigram.ts), and either way list exactly the people
// who match, with the same total. (Whether a common term's total walks depends on how the planner
// spreads the table's matches over the accounts; the tiny accounts of the other suites walk.)
const PEOPLE = 4000;

describe(
  'GET /v1/people text filters on PostgreSQL: the index for a rare term, a walk for a common one',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs PostgreSQL: set TEST_DATABASE_URL' },
  () => {
    let server: TestServer;
    let account: TestAccount;
    let auth: AuthUser;

    before(async () => {
      server = await startServer();
      account = await server.newAccount();
      auth = {
        accountId: account.accountId,
        userId: account.owner.id,
        role: 'Owner',
        name: account.owner.name,
        email: 'owner@example.com',
      };
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
      await sql`analyze people`.execute(server.ctx.db);
    });
    after(async () => server.close());

    /** The EXPLAIN lines of the page and of the total, planned as a list request plans them. */
    async function plans(query: Record<string, string>) {
      const { db, dialect } = server.ctx;
      return db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const list = await buildPeopleListQuery(trx, dialect, auth, query);
        const { rowsQuery, countQuery } = pageQueries({
          query: list.documents,
          countQuery: list.filtered,
          page: readPage({ limit: 100 }),
          sort: peopleSort(query.sort),
          idExpression: 'people.id',
          db: trx,
        });
        const explain = async (compiled: { sql: string; parameters: readonly unknown[] }) => {
          const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>({
            ...compiled,
            sql: `explain ${compiled.sql}`,
          } as never);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        };
        return {
          page: await explain(rowsQuery.compile()),
          total: await explain(countQuery.compile()),
          pageSql: rowsQuery.compile().sql,
          totalSql: countQuery.compile().sql,
        };
      });
    }
    const readsTheIndex = /people_search_trgm/;
    // The condition the trigram index answers (test/people-list-plans.test.ts checks that it does).
    const indexCondition = /people\.search_text like/;

    it('a rare term: the page and the total are given the trigram index condition', async () => {
      for (const query of [{ q: 'quinby' }, { lastName: 'inby-wal' }] as Record<string, string>[]) {
        // Whether the planner then reads the trigram index or the account's few thousand people
        // is its own choice: at this size both take well under a millisecond.
        const { pageSql, totalSql } = await plans(query);
        assert.match(pageSql, indexCondition, pageSql);
        assert.match(totalSql, indexCondition, totalSql);
        const res = await server.get(account.owner.key, `/v1/people?${new URLSearchParams(query)}`);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(
          res.body.people.map((p: { name: string }) => p.name),
          ['Ada Quinby-Walker'],
        );
        assert.equal(res.body._metadata.total, 1);
      }
    });

    it('a common term: the page walks the sort order, and every match is listed and counted', async () => {
      for (const query of [
        { q: 'walker' },
        { q: 'walkers.example' },
        { name: 'walker' },
        { q: 'walker', sort: 'name' },
      ] as Record<string, string>[]) {
        const label = new URLSearchParams(query).toString();
        const { page, pageSql } = await plans(query);
        assert.doesNotMatch(pageSql, indexCondition, `${label}:\n${pageSql}`);
        assert.doesNotMatch(page, readsTheIndex, `${label}:\n${page}`);
        assert.doesNotMatch(page, /^\s*(->\s*)?Sort\b/m, `${label}:\n${page}`);
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
