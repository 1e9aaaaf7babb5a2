import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer, type TestUser } from '../support/server.js';

type Agent = { userId: number; name: string } & Record<string, number | string>;

/**
 * GET /v1/reports/team, My day's team view: per agent, the period's uncontacted new leads and
 * open tasks overdue or due today, for a team leader (their teams' members only), the Owner
 * (everyone, or one team) and an agent who leads no team (nobody).
 */
describe('reports: a team leader’s day', () => {
  let server: TestServer;
  let clock = Date.parse('2026-04-10T09:00:00Z');
  let owner: TestUser;
  let lea: TestUser;
  let bob: TestUser;
  let cat: TestUser;
  let dan: TestUser;
  let team: number;
  let other: number;
  before(async () => {
    server = await startServer({ clock: { now: () => clock } });
    const account = await server.newAccount();
    owner = account.owner;
    lea = await account.addUser('Agent', 'Lea Leader');
    bob = await account.addUser('Agent', 'Bob Agent');
    cat = await account.addUser('Agent', 'Cat Agent');
    dan = await account.addUser('Agent', 'Dan Outside');
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await server.post(owner.key, path, body);
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    team = (
      await post('/v1/teams', { name: 'North', userIds: [bob.id, cat.id], leaderIds: [lea.id] })
    ).id;
    other = (await post('/v1/teams', { name: 'South', userIds: [dan.id], leaderIds: [dan.id] })).id;
    const person = async (name: string, agent: TestUser) =>
      (await post('/v1/people', { name, assignedUserId: agent.id })).id as number;
    clock = Date.parse('2026-04-08T10:00:00Z');
    const b1 = await person('B1', bob);
    await person('B2', bob);
    const c1 = await person('C1', cat);
    await person('D1', dan);
    clock = Date.parse('2026-04-08T10:05:00Z');
    await post('/v1/calls', { personId: b1, userId: bob.id, isIncoming: false });
    await post('/v1/calls', { personId: c1, userId: cat.id, isIncoming: true }); // not a contact
    const task = (agent: TestUser, personId: number, dueDate: string) =>
      post('/v1/tasks', { personId, name: `Call ${dueDate}`, assignedUserId: agent.id, dueDate });
    await task(bob, b1, '2026-04-09');
    await task(bob, b1, '2026-04-01');
    const done = await task(bob, b1, '2026-04-02');
    await task(cat, c1, '2026-04-10');
    await task(cat, c1, '2026-04-11'); // upcoming
    const res = await server.put(owner.key, `/v1/tasks/${done.id}`, { isCompleted: true });
    assert.equal(res.status, 200, res.text);
    clock = Date.parse('2026-04-10T09:00:00Z');
  });
  after(async () => server?.close());

  const period = 'since=2026-04-01&until=2026-04-11';
  const figures = (agents: Agent[]) =>
    agents.map((a) => [a.name, a.newLeads, a.uncontacted, a.overdueTasks, a.tasksDueToday]);
  const team_ = async (user: TestUser, extra = '') => {
    const res = await server.get(user.key, `/v1/reports/team?${period}${extra}`);
    assert.equal(res.status, 200, res.text);
    return res.body.agents as Agent[];
  };

  it('gives a team leader their members: uncontacted leads, overdue tasks, due today', async () => {
    assert.deepEqual(figures(await team_(lea)), [
      ['Bob Agent', 2, 1, 2, 0],
      ['Cat Agent', 1, 1, 0, 1],
    ]);
    assert.deepEqual(await team_(lea, `&teamId=${other}`), [], 'not a team Lea leads');
  });

  it('gives the Owner everyone, or one team; an agent leading no team nobody', async () => {
    const everyone = await team_(owner);
    assert.deepEqual(
      everyone.map((a) => a.name),
      ['Bob Agent', 'Cat Agent', 'Dan Outside', 'Lea Leader', owner.name],
    );
    assert.deepEqual(
      figures(await team_(owner, `&teamId=${team}`)).map((r) => r[0]),
      ['Bob Agent', 'Cat Agent'],
    );
    assert.deepEqual(await team_(bob), []);
    assert.deepEqual(figures(await team_(dan)), [['Dan Outside', 1, 1, 0, 0]]);
  });

  it('answers CSV and refuses a bad period', async () => {
    const csv = await server.get(lea.key, `/v1/reports/team?${period}&format=csv`);
    assert.equal(csv.status, 200);
    assert.deepEqual(
      csv.text
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
      [
        'userId,name,newLeads,uncontacted,overdueTasks,tasksDueToday',
        `${bob.id},Bob Agent,2,1,2,0`,
        `${cat.id},Cat Agent,1,1,0,1`,
      ],
    );
    const bad = await server.get(lea.key, '/v1/reports/team?since=yesterday');
    assert.equal(bad.status, 400);
    assert.match(bad.body.errorMessage, /since/);
  });
});
