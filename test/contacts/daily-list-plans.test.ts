import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type SelectQueryBuilder, sql } from 'kysely';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';
import { pageQueries, readPage, type SortKey } from '../../src/platform/http/pagination.js';
import type { AuthUser } from '../../src/accounts/auth/authenticate.js';
import type { DB } from '../../src/platform/db/database.js';
import { notesQuery } from '../../src/timeline/notes/notes.repo.js';
import { visibleEventsQuery } from '../../src/leads/events/events.repo.js';
import { tasksList } from '../../src/timeline/tasks/tasks.repo.js';
import { visibleDealsQuery } from '../../src/deals/deals.repo.js';
import { visibleEmEvents } from '../../src/marketing/emEvents/emEvents.repo.js';

// The other lists a team works in daily (issue 19, step 5; migration 0310): events, notes and
// tasks of a person, tasks due today / upcoming / overdue, deals by pipeline stage and by
// pipeline, emEvents by campaign. Each first page (newest first, as the API lists by default) is
// read from an index, on SQLite (EXPLAIN QUERY PLAN) and PostgreSQL (EXPLAIN with sequential
// scans priced out, as the planner would at a million rows): no plan scans the table, and a
// filter by equality is a range of an index read in order, not a sort of every match.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery = SelectQueryBuilder<DB, any, any>;

describe('daily lists at scale: query plans use indexes', () => {
  let server: TestServer;
  let account: TestAccount;
  let owner: AuthUser;

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    owner = {
      accountId: account.accountId,
      userId: account.owner.id,
      role: 'Owner',
      name: account.owner.name,
      email: 'owner@example.com',
    };
  });
  after(async () => server.close());

  const byNewest = (table: string): SortKey => ({
    name: '-id',
    expression: `${table}.id`,
    descending: true,
  });

  async function explain(query: AnyQuery, table: string): Promise<string[]> {
    const { db, dialect } = server.ctx;
    const { rowsQuery } = pageQueries({
      query,
      page: readPage({ limit: 100 }),
      sort: byNewest(table),
      idExpression: `${table}.id`,
    });
    const compiled = rowsQuery.compile();
    if (dialect === 'sqlite') {
      const { rows } = await db.executeQuery<{ detail: string }>({
        ...compiled,
        sql: `explain query plan ${compiled.sql}`,
      } as never);
      return rows.map((r) => r.detail);
    }
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>({
        ...compiled,
        sql: `explain ${compiled.sql}`,
      } as never);
      return rows.map((r) => r['QUERY PLAN']);
    });
  }

  const scans = (lines: string[], table: string) =>
    lines.filter((l) =>
      server.ctx.dialect === 'sqlite'
        ? new RegExp(`\\bSCAN ${table}\\b`).test(l)
        : new RegExp(`Seq Scan on ${table}\\b`).test(l),
    );
  const sorts = (lines: string[]) =>
    lines.filter((l) =>
      server.ctx.dialect === 'sqlite'
        ? /TEMP B-TREE FOR ORDER BY/.test(l)
        : /^\s*(->\s*)?(Incremental )?Sort\b/.test(l),
    );

  it('each list is read from an index, equality filters in the page order', async () => {
    const { db } = server.ctx;
    const today = '2026-11-25';
    const lists: { label: string; table: string; query: AnyQuery; ordered: boolean }[] = [
      {
        label: 'events?personId=',
        table: 'lead_events',
        query: visibleEventsQuery(db, owner).where('lead_events.person_id', '=', 7),
        ordered: true,
      },
      {
        label: 'notes?personId=',
        table: 'notes',
        query: notesQuery(db, owner).where('notes.person_id', '=', 7),
        ordered: true,
      },
      {
        label: 'tasks?personId=',
        table: 'tasks',
        query: tasksList(db, owner, { personId: 7 }, today),
        ordered: true,
      },
      {
        label: 'tasks?due=today',
        table: 'tasks',
        query: tasksList(db, owner, { due: 'today' }, today),
        ordered: true,
      },
      {
        label: 'tasks?due=upcoming',
        table: 'tasks',
        query: tasksList(db, owner, { due: 'upcoming' }, today),
        ordered: false,
      },
      {
        label: 'tasks?due=overdue',
        table: 'tasks',
        query: tasksList(db, owner, { due: 'overdue' }, today),
        ordered: false,
      },
      {
        label: 'deals?stageId=',
        table: 'deals',
        query: visibleDealsQuery(db, owner, { stageId: 3 }),
        ordered: true,
      },
      {
        label: 'deals?pipelineId=',
        table: 'deals',
        query: visibleDealsQuery(db, owner, { pipelineId: 2 }),
        ordered: true,
      },
      {
        label: 'emEvents?campaignId=',
        table: 'em_events',
        query: visibleEmEvents(db, owner, { campaignId: 5 }).selectAll('em_events'),
        ordered: true,
      },
    ];
    for (const { label, table, query, ordered } of lists) {
      const plan = await explain(query, table);
      assert.deepEqual(scans(plan, table), [], `${label}:\n${plan.join('\n')}`);
      if (ordered) assert.deepEqual(sorts(plan), [], `${label}:\n${plan.join('\n')}`);
    }
  });

  it('deals by stage and by pipeline list the right deals, newest first (through HTTP)', async () => {
    const key = account.owner.key;
    const pipeline = await server.post(key, '/v1/pipelines', {
      name: 'Plan sellers',
      stages: [{ name: 'Listing' }, { name: 'Under contract' }],
    });
    assert.equal(pipeline.status, 201, pipeline.text);
    const [listing, contract] = pipeline.body.stages as { id: number }[];
    const ids: Record<string, number[]> = { listing: [], contract: [] };
    for (const [stage, stageId] of [
      ['listing', listing.id],
      ['contract', contract.id],
      ['listing', listing.id],
    ] as const) {
      const deal = await server.post(key, '/v1/deals', { name: `Plan ${stage}`, stageId });
      assert.equal(deal.status, 201, deal.text);
      ids[stage].unshift(deal.body.id);
    }
    const listed = async (query: string) => {
      const res = await server.get(key, `/v1/deals?${query}`);
      assert.equal(res.status, 200, res.text);
      return (res.body.deals as { id: number }[]).map((d) => d.id);
    };
    assert.deepEqual(await listed(`stageId=${listing.id}`), ids.listing);
    assert.deepEqual(await listed(`stageId=${contract.id}`), ids.contract);
    assert.deepEqual(
      await listed(`pipelineId=${pipeline.body.id}`),
      [...ids.listing, ...ids.contract].sort((a, b) => b - a),
    );
  });
});
