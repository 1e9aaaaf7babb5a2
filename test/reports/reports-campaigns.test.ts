import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import {
  startServer,
  type TestAccount,
  type TestServer,
  type TestUser,
} from '../support/server.js';
import { rebuildEmEventDays } from '../../src/platform/db/migrations/0471_em_event_days.js';

type Figures = Record<string, number | string>;

/**
 * GET /v1/reports/campaigns: a period's sends, opens, clicks, unsubscribes and bounces per
 * campaign and per day from events recorded at known times, role scopes, CSV, and the day
 * counters against a recount after a person's deletion takes events away.
 */
describe('reports: campaigns', () => {
  let server: TestServer;
  let account: TestAccount;
  let owner: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let oak: number;
  let elm: number;
  const people: number[] = [];
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    owner = account.owner;
    alice = await account.addUser('Agent', 'Alice Agent');
    bob = await account.addUser('Agent', 'Bob Agent');
    const campaign = async (name: string) => {
      const res = await server.post(owner.key, '/v1/emCampaigns', {
        origin: 'Tool',
        originId: name,
        name,
        subject: name,
        bodyHtml: 'b',
      });
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    oak = await campaign('Oak news');
    elm = await campaign('Elm news');
    for (const name of ['Ann', 'Ben'])
      people.push((await server.newPerson(owner.key, { name })).id);
    const e = (type: string, campaignId: number, p: number, user: TestUser, occurred: string) => ({
      type,
      campaignId,
      personId: people[p],
      userId: user.id,
      occurred,
    });
    const res = await server.post(owner.key, '/v1/emEvents', {
      emEvents: [
        e('hard-bounce', oak, 1, alice, '2026-03-09T23:59:59Z'), // before the period
        e('delivered', oak, 0, alice, '2026-03-10T08:00:00Z'),
        e('delivered', oak, 1, alice, '2026-03-10T08:00:01Z'),
        e('open', oak, 0, alice, '2026-03-11T09:00:00Z'),
        e('open', oak, 0, alice, '2026-03-11T09:05:00Z'),
        e('click', oak, 0, alice, '2026-03-11T09:06:00Z'),
        e('unsubscribe', oak, 1, bob, '2026-03-12T10:00:00Z'),
        e('soft-bounce', oak, 1, bob, '2026-03-12T10:00:00Z'),
        e('delivered', elm, 1, bob, '2026-03-15T23:00:00Z'),
        e('dropped', elm, 0, bob, '2026-03-15T23:00:00Z'), // not one of the figures
        e('delivered', elm, 0, bob, '2026-03-16T00:00:00Z'), // the day after the period
      ],
    });
    assert.equal(res.status, 201, res.text);
  });
  after(async () => server?.close());

  const period = 'since=2026-03-10&until=2026-03-16';
  const figures = (
    sends: number,
    opens: number,
    clicks: number,
    unsub: number,
    bounces: number,
  ) => ({
    sends,
    opens,
    clicks,
    unsubscribes: unsub,
    bounces,
  });
  const get = async (user: TestUser, query: string) => {
    const res = await server.get(user.key, `/v1/reports/campaigns?${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body as { campaigns: Figures[]; byDay: Figures[] };
  };

  it('counts each figure per campaign and per day, in the period only', async () => {
    const report = await get(owner, period);
    assert.deepEqual(report.campaigns, [
      { campaignId: oak, name: 'Oak news', origin: 'Tool', ...figures(2, 2, 1, 1, 1) },
      { campaignId: elm, name: 'Elm news', origin: 'Tool', ...figures(1, 0, 0, 0, 0) },
    ]);
    assert.deepEqual(report.byDay, [
      { day: '2026-03-10', ...figures(2, 0, 0, 0, 0) },
      { day: '2026-03-11', ...figures(0, 2, 1, 0, 0) },
      { day: '2026-03-12', ...figures(0, 0, 0, 1, 1) },
      { day: '2026-03-15', ...figures(1, 0, 0, 0, 0) },
    ]);
    const one = await get(owner, `${period}&campaignId=${elm}`);
    assert.deepEqual(
      one.campaigns.map((c) => c.campaignId),
      [elm],
    );
  });

  it('gives an Agent the events of the emails they sent, and filters by user', async () => {
    const mine = await get(alice, period);
    assert.deepEqual(
      mine.campaigns.map((c) => [c.name, c.sends, c.opens, c.unsubscribes]),
      [['Oak news', 2, 2, 0]],
    );
    const hers = await get(bob, `${period}&userId=${alice.id}`);
    assert.deepEqual(hers.campaigns, [], 'an Agent cannot read another agent');
    const bobs = await get(owner, `${period}&userId=${bob.id}`);
    assert.deepEqual(
      bobs.campaigns.map((c) => [c.name, c.sends, c.unsubscribes, c.bounces]),
      [
        ['Elm news', 1, 0, 0],
        ['Oak news', 0, 1, 1],
      ],
    );
  });

  it('answers CSV, a line per campaign', async () => {
    const res = await server.get(owner.key, `/v1/reports/campaigns?${period}&format=csv`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    const lines = res.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.deepEqual(lines, [
      'campaignId,name,origin,sends,opens,clicks,unsubscribes,bounces',
      `${oak},Oak news,Tool,2,2,1,1,1`,
      `${elm},Elm news,Tool,1,0,0,0,0`,
    ]);
  });

  it('takes a deleted person’s events out, as a recount does', async () => {
    const res = await server.del(owner.key, `/v1/people/${people[1]}`);
    assert.equal(res.status, 204, res.text);
    const report = await get(owner, period);
    assert.deepEqual(
      report.campaigns.map((c) => [c.name, c.sends, c.unsubscribes, c.bounces]),
      [['Oak news', 1, 0, 0]],
    );
    const counters = async () =>
      (
        await sql<Figures>`select day, campaign_id, user_id, type, events from em_event_days
          where account_id = ${account.accountId} and events <> 0
          order by day, campaign_id, user_id, type`.execute(server.ctx.db)
      ).rows.map((r) => ({ ...r, events: Number(r.events) }));
    const maintained = await counters();
    assert.ok(maintained.length >= 3);
    await rebuildEmEventDays(server.ctx.db, account.accountId);
    assert.deepEqual(await counters(), maintained);
  });
});
