import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ApiResponse, type TestServer, startServer, unique } from '../support/server.js';
import { isoSeconds } from '../../src/platform/time.js';

const email = () => `${unique('flow')}@example.com`;

describe('groups and lead flows', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('manages groups: Owner/Admin write, everyone reads, other accounts see nothing', async () => {
    const { owner, addUser } = await server.newAccount();
    const other = await server.newAccount();
    const admin = await addUser('Admin');
    const agent = await addUser('Agent');
    const created = await server.post(admin.key, '/v1/groups', {
      name: 'Buyers',
      distribution: 'round-robin',
      users: [agent.id, { id: owner.id }],
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(
      created.body.users.map((u: { id: number }) => u.id),
      [agent.id, owner.id],
    );
    assert.equal(created.body.distribution, 'round-robin');
    assert.equal((await server.post(agent.key, '/v1/groups', { name: 'Mine' })).status, 403);
    assert.equal(
      (await server.put(agent.key, `/v1/groups/${created.body.id}`, { name: 'X' })).status,
      403,
    );
    assert.equal((await server.del(agent.key, `/v1/groups/${created.body.id}`)).status, 403);
    const list = await server.get(agent.key, '/v1/groups');
    assert.equal(list.body._metadata.collection, 'groups');
    assert.equal(list.body.groups.length, 1);
    assert.equal((await server.get(other.owner.key, `/v1/groups/${created.body.id}`)).status, 404);
    assert.equal(
      (await server.put(other.owner.key, `/v1/groups/${created.body.id}`, { name: 'Stolen' }))
        .status,
      404,
    );
    const foreignUser = await server.post(owner.key, '/v1/groups', {
      name: 'Bad',
      users: [other.owner.id],
    });
    assert.equal(foreignUser.status, 400);
    assert.match(foreignUser.body.errorMessage, /no user/);
    assert.equal(
      (await server.post(owner.key, '/v1/groups', { name: 'Odd', distribution: 'lottery' })).status,
      400,
    );
    const updated = await server.put(owner.key, `/v1/groups/${created.body.id}`, {
      users: [owner.id],
    });
    assert.deepEqual(
      updated.body.users.map((u: { id: number }) => u.id),
      [owner.id],
    );
    assert.equal(updated.body.name, 'Buyers');
    assert.equal((await server.del(owner.key, `/v1/groups/${created.body.id}`)).status, 204);
    assert.equal((await server.get(owner.key, `/v1/groups/${created.body.id}`)).status, 404);
  });

  it('manages lead flows: Owner/Admin only, validated references, one flow per source', async () => {
    const { owner, addUser } = await server.newAccount();
    const other = await server.newAccount();
    const agent = await addUser('Agent');
    const admin = await addUser('Admin');
    assert.equal((await server.get(agent.key, '/v1/leadFlows')).status, 403);
    assert.equal((await server.post(agent.key, '/v1/leadFlows', { source: 'x.com' })).status, 403);
    const created = await server.post(admin.key, '/v1/leadFlows', {
      source: 'www.Zillow.com',
      assignedUserId: agent.id,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.source, 'Zillow.com');
    assert.equal(created.body.status, 'Active');
    const dup = await server.post(owner.key, '/v1/leadFlows', { source: 'zillow.com' });
    assert.equal(dup.status, 409);
    const badUser = await server.post(owner.key, '/v1/leadFlows', {
      source: 'a.com',
      assignedUserId: other.owner.id,
    });
    assert.equal(badUser.status, 400);
    assert.match(badUser.body.errorMessage, /assignedUserId/);
    const group = await server.post(owner.key, '/v1/groups', { name: 'G', users: [agent.id] });
    const both = await server.post(owner.key, '/v1/leadFlows', {
      source: 'b.com',
      assignedUserId: agent.id,
      groupId: group.body.id,
    });
    assert.equal(both.status, 400);
    assert.equal(
      (await server.post(owner.key, '/v1/leadFlows', { source: 'c.com', stageId: 99999999 }))
        .status,
      400,
    );
    assert.equal(
      (await server.post(owner.key, '/v1/leadFlows', { source: 'd.com', actionPlanId: 99999999 }))
        .status,
      400,
    );
    assert.equal((await server.post(owner.key, '/v1/leadFlows', { source: '   ' })).status, 400);
    // switching to a group clears the user
    const switched = await server.put(owner.key, `/v1/leadFlows/${created.body.id}`, {
      groupId: group.body.id,
    });
    assert.equal(switched.status, 200, switched.text);
    assert.equal(switched.body.assignedUserId, null);
    assert.equal(switched.body.groupId, group.body.id);
    assert.equal(
      (await server.get(other.owner.key, `/v1/leadFlows/${created.body.id}`)).status,
      404,
    );
    assert.equal(
      (await server.del(other.owner.key, `/v1/leadFlows/${created.body.id}`)).status,
      404,
    );
    const list = await server.get(owner.key, '/v1/leadFlows?source=www.zillow.com');
    assert.equal(list.body._metadata.collection, 'leadFlows');
    assert.equal(list.body.leadFlows.length, 1);
    assert.equal((await server.del(owner.key, `/v1/leadFlows/${created.body.id}`)).status, 204);
    assert.equal((await server.get(owner.key, `/v1/leadFlows/${created.body.id}`)).status, 404);
  });

  it("routes a new lead to the flow's user and stage; returning leads keep their agent", async () => {
    const { owner, addUser } = await server.newAccount();
    const agent = await addUser('Agent');
    const stages = await server.ctx.db
      .selectFrom('stages')
      .select(['id', 'name'])
      .where('name', '=', 'Prospect')
      .where('account_id', '=', (await server.get(owner.key, '/v1/identity')).body.account.id)
      .execute();
    await server.post(owner.key, '/v1/leadFlows', {
      source: 'homes.com',
      assignedUserId: agent.id,
      stageId: stages[0].id,
    });
    const address = email();
    const lead = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      source: 'WWW.homes.com',
      person: { emails: [address] },
    });
    assert.equal(lead.status, 201);
    assert.equal(lead.body.assignedUserId, agent.id);
    assert.equal(lead.body.stage, 'Prospect');
    // an agent chosen by the sender wins over the flow
    const chosen = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      source: 'homes.com',
      person: { emails: [email()], assignedUserId: owner.id },
    });
    assert.equal(chosen.body.assignedUserId, owner.id);
    const agent2 = await addUser('Agent');
    await server.put(
      owner.key,
      `/v1/leadFlows/${(await server.get(owner.key, '/v1/leadFlows')).body.leadFlows[0].id}`,
      { assignedUserId: agent2.id },
    );
    const back = await server.post(owner.key, '/v1/events', {
      type: 'Viewed Property',
      source: 'homes.com',
      person: { emails: [address] },
    });
    assert.equal(back.status, 200);
    assert.equal(back.body.assignedUserId, agent.id);
  });

  it('ignores leads of an archived flow with 204 and stores nothing', async () => {
    const { accountId, owner } = await server.newAccount();
    const flow = await server.post(owner.key, '/v1/leadFlows', {
      source: 'spam.com',
      status: 'Archived',
    });
    assert.equal(flow.status, 201);
    const address = email();
    const res = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      source: 'www.spam.com',
      person: { emails: [address] },
    });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    for (const table of ['people', 'lead_events', 'notifications'] as const) {
      const rows = await server.ctx.db
        .selectFrom(table)
        .select('id')
        .where('account_id', '=', accountId)
        .execute();
      assert.equal(rows.length, 0, table);
    }
    await server.put(owner.key, `/v1/leadFlows/${flow.body.id}`, { status: 'Active' });
    assert.equal(
      (
        await server.post(owner.key, '/v1/events', {
          type: 'Registration',
          source: 'spam.com',
          person: { emails: [address] },
        })
      ).status,
      201,
    );
  });

  it('shares 100 concurrent leads fairly across a round-robin group of 3 agents', async () => {
    const { owner, addUser } = await server.newAccount();
    const agents = [await addUser('Agent'), await addUser('Agent'), await addUser('Agent')];
    const group = await server.post(owner.key, '/v1/groups', {
      name: 'Team',
      users: agents.map((a) => a.id),
    });
    await server.post(owner.key, '/v1/leadFlows', { source: 'rr.com', groupId: group.body.id });
    const results: ApiResponse[] = [];
    for (let batch = 0; batch < 10; batch++) {
      results.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, () =>
            server.post(owner.key, '/v1/events', {
              type: 'Registration',
              source: 'rr.com',
              person: { emails: [email()] },
            }),
          ),
        )),
      );
    }
    assert.ok(
      results.every((r) => r.status === 201),
      results.map((r) => r.text).join('\n'),
    );
    const counts = agents.map((a) => results.filter((r) => r.body.assignedUserId === a.id).length);
    assert.equal(
      counts.reduce((x, y) => x + y),
      100,
    );
    assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `uneven rotation ${counts}`);
    // each agent is notified of exactly their own new leads
    for (const [i, agent] of agents.entries()) {
      const mine = await server.get(agent.key, '/v1/notifications?limit=1');
      assert.equal(mine.body._metadata.total, counts[i]);
    }
    // an emptied group falls back to the owner
    await server.put(owner.key, `/v1/groups/${group.body.id}`, { users: [] });
    const fallback = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      source: 'rr.com',
      person: { emails: [email()] },
    });
    assert.equal(fallback.body.assignedUserId, owner.id);
  });

  it("starts the flow's action plan only for new leads of triggering types", async () => {
    const { accountId, owner } = await server.newAccount();
    const at = isoSeconds(Date.now());
    const plan = await server.ctx.db
      .insertInto('action_plans')
      .values({
        account_id: accountId,
        name: unique('Plan'),
        description: '',
        status: 'Active',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const flow = await server.post(owner.key, '/v1/leadFlows', {
      source: 'plans.com',
      actionPlanId: plan.id,
    });
    assert.equal(flow.status, 201, flow.text);
    assert.equal(flow.body.actionPlanId, plan.id);
    const runs = async (personId: number) =>
      (
        await server.ctx.db
          .selectFrom('action_plans_people')
          .select('id')
          .where('person_id', '=', personId)
          .where('action_plan_id', '=', plan.id)
          .execute()
      ).length;
    const triggering = await server.post(owner.key, '/v1/events', {
      type: 'inquiry',
      source: 'plans.com',
      person: { emails: [email()] },
    });
    assert.equal(await runs(triggering.body.id), 1);
    const viewing = await server.post(owner.key, '/v1/events', {
      type: 'Viewed Property',
      source: 'plans.com',
      person: { emails: [email()] },
    });
    assert.equal(await runs(viewing.body.id), 0);
    const returning = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      source: 'plans.com',
      person: { id: viewing.body.id },
    });
    assert.equal(returning.status, 200);
    assert.equal(await runs(viewing.body.id), 0);
    const old = isoSeconds(Date.now() - 2 * 86400_000);
    const historical = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      source: 'plans.com',
      occurredAt: old,
      person: { emails: [email()] },
    });
    assert.equal(await runs(historical.body.id), 0);
  });
});
