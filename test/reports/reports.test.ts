import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type ApiResponse,
  startServer,
  type TestAccount,
  type TestServer,
  type TestUser,
} from '../support/server.js';
import { rebuildAccountReportCounters } from '../../src/reports/reports.rebuild.js';
import { reportCounters } from './reports-helpers.js';

type AgentRow = { userId: number } & Record<string, number | string | null>;

/**
 * GET /v1/reports/agentActivity and /leadSources against activity created at known times (the
 * server's clock is moved between writes), then the maintained counters against a rebuild.
 */
describe('reports: agent activity and lead sources', () => {
  let server: TestServer;
  let clock = Date.parse('2026-03-10T10:00:00Z');
  before(async () => {
    server = await startServer({ clock: { now: () => clock } });
  });
  after(async () => server?.close());

  const at = (iso: string) => {
    clock = Date.parse(iso);
  };
  async function ok(res: Promise<ApiResponse>, status = 201) {
    const r = await res;
    assert.equal(r.status, status, r.text);
    return r.body;
  }

  let account: TestAccount;
  let owner: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let lena: TestUser;
  const ids: Record<string, number> = {};

  before(async () => {
    account = await server.newAccount();
    owner = account.owner;
    alice = await account.addUser('Agent', 'Alice Agent');
    bob = await account.addUser('Agent', 'Bob Agent');
    lena = await account.addUser('Lender', 'Lena Lender');
    const key = owner.key;
    const person = async (name: string, fields: Record<string, unknown>) =>
      (ids[name] = (await ok(server.post(key, '/v1/people', { name, ...fields }))).id);
    const pipeline = await ok(
      server.post(key, '/v1/pipelines', { name: 'Buyers', stages: [{ name: 'Offer' }] }),
    );

    at('2026-03-01T09:00:00Z'); // before the period
    await person('Old', { source: 'Zillow', assignedUserId: alice.id });
    await ok(server.post(key, '/v1/calls', { personId: ids.Old, userId: alice.id }));

    at('2026-03-10T10:00:00Z');
    await person('P1', { source: 'Zillow', assignedUserId: alice.id, assignedLenderId: lena.id });
    await person('P2', { source: 'Zillow', assignedUserId: alice.id });
    await person('P3', { source: 'Website', assignedUserId: bob.id });
    await person('P5', { source: 'Website', assignedUserId: bob.id });
    at('2026-03-10T10:01:00Z'); // incoming: not a contact
    await ok(
      server.post(key, '/v1/calls', { personId: ids.P1, userId: alice.id, isIncoming: true }),
    );
    at('2026-03-10T10:02:00Z');
    await ok(
      server.post(alice.key, '/v1/textMessages', {
        personId: ids.P2,
        message: 'Hi',
        isIncoming: false,
      }),
    );
    at('2026-03-10T10:05:00Z'); // by another agent: still the person's first contact
    await ok(
      server.post(key, '/v1/calls', { personId: ids.P1, userId: bob.id, isIncoming: false }),
    );
    at('2026-03-10T10:16:40Z');
    await ok(
      server.post(bob.key, '/v1/emails', { personId: ids.P3, subject: 'Hello', isIncoming: false }),
    );
    at('2026-03-11T08:00:00Z'); // later contacts do not change the first
    await ok(server.post(key, '/v1/calls', { personId: ids.P2, userId: alice.id }));
    await ok(server.post(key, '/v1/notes', { personId: ids.P1, body: 'Met' }));
    await ok(server.post(alice.key, '/v1/notes', { personId: ids.P1, body: 'Called back' }));
    await ok(
      server.post(alice.key, '/v1/appointments', {
        title: 'Showing',
        start: '2026-03-12T10:00:00Z',
        end: '2026-03-12T11:00:00Z',
        invitees: [{ personId: ids.P1 }],
      }),
    );
    const task = await ok(
      server.post(key, '/v1/tasks', { personId: ids.P5, name: 'Call', assignedUserId: bob.id }),
    );
    at('2026-03-12T12:00:00Z');
    await ok(server.put(key, `/v1/tasks/${task.id}`, { isCompleted: true }), 200);
    await ok(
      server.post(key, '/v1/tasks', { personId: ids.P5, name: 'Open', assignedUserId: alice.id }),
    );
    // P3 moves from Bob to Alice: the reports follow the person's agent
    await ok(server.put(key, `/v1/people/${ids.P3}`, { assignedUserId: alice.id }), 200);
    const stageId = pipeline.stages[0].id;
    await ok(
      server.post(key, '/v1/deals', {
        name: 'Oak',
        stageId,
        price: 500000,
        peopleIds: [ids.P1, ids.P2],
      }),
    );
    const gone = await ok(
      server.post(key, '/v1/deals', { name: 'Elm', stageId, price: 100, peopleIds: [ids.P3] }),
    );
    await ok(server.del(key, `/v1/deals/${gone.id}`), 204);
    at('2026-03-20T00:00:00Z');
  });

  const period = 'since=2026-03-05&until=2026-03-19';
  const row = (report: { agents: AgentRow[] }, user: TestUser) =>
    report.agents.find((a) => a.userId === user.id);

  it('pins every figure of agentActivity', async () => {
    const report = await ok(server.get(owner.key, `/v1/reports/agentActivity?${period}`), 200);
    assert.equal(report.since, '2026-03-05T00:00:00Z');
    assert.equal(report.until, '2026-03-19T00:00:00Z');
    assert.deepEqual(row(report, alice), {
      userId: alice.id,
      name: 'Alice Agent',
      newLeads: 3, // P1, P2 and P3 (moved to her); Old is before the period
      contacted: 3,
      speedToLeadSeconds: 300, // median of 120 (P2), 300 (P1), 1000 (P3)
      calls: 2, // the incoming one and the one of the 11th
      textMessages: 1,
      emails: 0,
      notes: 1,
      appointments: 1,
      tasksCompleted: 0,
    });
    assert.deepEqual(row(report, bob), {
      userId: bob.id,
      name: 'Bob Agent',
      newLeads: 1,
      contacted: 0,
      speedToLeadSeconds: null,
      calls: 1,
      textMessages: 0,
      emails: 1,
      notes: 0,
      appointments: 0,
      tasksCompleted: 1,
    });
    assert.equal(row(report, owner)?.notes, 1);
  });

  it('counts the leads of a period that starts mid-day as those of whole days', async () => {
    // the leads of the 10th are in the part of a day before the counters' whole days
    const since = 'since=2026-03-10T09:00:00Z&until=2026-03-19';
    const report = await ok(server.get(owner.key, `/v1/reports/agentActivity?${since}`), 200);
    const lead = (u: TestUser) => {
      const r = row(report, u)!;
      return [r.newLeads, r.contacted, r.speedToLeadSeconds];
    };
    assert.deepEqual(lead(alice), [3, 3, 300]);
    assert.deepEqual(lead(bob), [1, 0, null]);
    const later = 'since=2026-03-10T10:00:01Z&until=2026-03-19';
    const none = await ok(server.get(owner.key, `/v1/reports/agentActivity?${later}`), 200);
    assert.deepEqual(row(none, alice)!.newLeads, 0);
  });

  it('pins every figure of leadSources', async () => {
    const report = await ok(server.get(owner.key, `/v1/reports/leadSources?${period}`), 200);
    assert.deepEqual(report.sources, [
      { source: 'Website', leads: 2, contacted: 1, appointments: 0, deals: 0, dealValue: 0 },
      { source: 'Zillow', leads: 2, contacted: 2, appointments: 1, deals: 1, dealValue: 500000 },
    ]);
  });

  it('counts the parts of days at the edges of a period from the records', async () => {
    const since = encodeURIComponent('2026-03-10T10:03:00Z');
    const until = encodeURIComponent('2026-03-11T08:00:00Z');
    const report = await ok(
      server.get(owner.key, `/v1/reports/agentActivity?since=${since}&until=${until}`),
      200,
    );
    assert.equal(row(report, bob)?.calls, 1); // 10:05
    assert.equal(row(report, bob)?.emails, 1);
    assert.equal(row(report, alice)?.calls, 0); // 10:01 before, 08:00 on the 11th excluded
    assert.equal(row(report, alice)?.newLeads, 0);
    const wide = await ok(
      server.get(
        owner.key,
        `/v1/reports/agentActivity?since=2026-03-10T10:01:00Z&until=2026-03-11T08:00:01Z`,
      ),
      200,
    );
    assert.equal(row(wide, alice)?.calls, 2);
    assert.equal(row(wide, alice)?.notes, 1);
    assert.equal(row(wide, owner)?.notes, 1);
  });

  it('gives an Agent or a Lender only their own row and people', async () => {
    const mine = await ok(server.get(alice.key, `/v1/reports/agentActivity?${period}`), 200);
    assert.deepEqual(
      mine.agents.map((a: { userId: number }) => a.userId),
      [alice.id],
    );
    const other = await ok(
      server.get(alice.key, `/v1/reports/agentActivity?${period}&userId=${bob.id}`),
      200,
    );
    assert.deepEqual(other.agents, []);
    const bobs = await ok(server.get(bob.key, `/v1/reports/leadSources?${period}`), 200);
    assert.deepEqual(bobs.sources, [
      { source: 'Website', leads: 1, contacted: 0, appointments: 0, deals: 0, dealValue: 0 },
    ]);
    const lenders = await ok(server.get(lena.key, `/v1/reports/leadSources?${period}`), 200);
    assert.deepEqual(
      lenders.sources.map((s: { source: string; leads: number }) => [s.source, s.leads]),
      [['Zillow', 1]],
    );
    const filtered = await ok(
      server.get(owner.key, `/v1/reports/leadSources?${period}&userId=${bob.id}`),
      200,
    );
    assert.deepEqual(filtered.sources, bobs.sources);
  });

  it('answers CSV with a header line of the fields', async () => {
    const res = await server.get(owner.key, `/v1/reports/leadSources?${period}&format=csv`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(
      String(res.headers['content-disposition']),
      /lead-sources-2026-03-05-2026-03-19\.csv/,
    );
    const lines = res.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.deepEqual(lines, [
      'source,leads,contacted,appointments,deals,dealValue',
      'Website,2,1,0,0,0',
      'Zillow,2,2,1,1,500000',
    ]);
    const agents = await server.get(alice.key, `/v1/reports/agentActivity?${period}&format=csv`);
    assert.equal(
      agents.text
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')[1],
      `${alice.id},Alice Agent,3,3,300,2,1,0,1,1,0`,
    );
  });

  it('refuses bad periods with a 400 saying what to fix', async () => {
    for (const q of ['since=yesterday', 'since=2026-03-10&until=2026-03-01', 'until=2026-02-30']) {
      const res = await server.get(owner.key, `/v1/reports/agentActivity?${q}`);
      assert.equal(res.status, 400, q);
      assert.ok(res.body.errorMessage, q);
    }
    const defaults = await ok(server.get(owner.key, '/v1/reports/agentActivity'), 200);
    assert.equal(defaults.until, '2026-03-20T00:00:00Z');
    assert.equal(defaults.since, '2026-02-18T00:00:00Z');
  });

  it('lists uncontacted leads oldest first with their wait, and the people behind a figure', async () => {
    const un = await ok(server.get(owner.key, `/v1/reports/uncontacted?${period}`), 200);
    assert.deepEqual(
      un.people.map((p: { personId: number; waitedSeconds: number }) => [
        p.personId,
        p.waitedSeconds,
      ]),
      [[ids.P5, 10 * 86400 - 36000]], // created 2026-03-10T10:00, now 2026-03-20T00:00
    );
    const zillow = await ok(
      server.get(owner.key, `/v1/reports/people?${period}&source=Zillow&contacted=true`),
      200,
    );
    assert.deepEqual(
      zillow.people.map((p: { name: string; waitedSeconds: number }) => [p.name, p.waitedSeconds]),
      [
        ['P1', 300],
        ['P2', 120],
      ],
    );
    const none = await ok(server.get(bob.key, `/v1/reports/people?${period}&source=Zillow`), 200);
    assert.deepEqual(none.people, []);
  });

  it('sums the pipeline by stage without Deleted deals', async () => {
    const report = await ok(server.get(owner.key, `/v1/reports/pipeline?${period}`), 200);
    assert.deepEqual(
      report.stages.map((s: { stageName: string; deals: number; value: number }) => [
        s.stageName,
        s.deals,
        s.value,
      ]),
      [['Offer', 1, 500000]],
    );
    const agents = await ok(server.get(bob.key, `/v1/reports/pipeline?${period}`), 200);
    assert.deepEqual(agents.stages, []);
  });

  const counters = () => reportCounters(server, account.accountId);

  it('keeps counters equal to a rebuild from scratch, through updates, moves and deletions', async () => {
    const key = owner.key;
    at('2026-03-21T09:00:00Z');
    const calls = await ok(server.get(key, `/v1/calls?personId=${ids.P1}`), 200);
    const first = calls.calls.find((c: { isIncoming: boolean }) => !c.isIncoming);
    await ok(server.put(key, `/v1/calls/${first.id}`, { isIncoming: true }), 200);
    await ok(
      server.put(key, `/v1/calls/${first.id}`, { personId: ids.P5, isIncoming: false }),
      200,
    );
    const appointments = await ok(server.get(key, `/v1/appointments?personId=${ids.P1}`), 200);
    await ok(server.del(key, `/v1/appointments/${appointments.appointments[0].id}`), 204);
    await ok(server.del(key, `/v1/people/${ids.P3}`), 204);
    await ok(server.del(key, `/v1/users/${bob.id}?assignTo=${owner.id}`), 204);
    const maintained = await counters();
    assert.ok(maintained.days.length > 5 && maintained.leads.length >= 3);
    assert.ok(maintained.leadDays.length >= 3 && maintained.contactDays.length >= 1);
    await rebuildAccountReportCounters(server.ctx.db, server.ctx.dialect, account.accountId);
    assert.deepEqual(await counters(), maintained);
  });
});
