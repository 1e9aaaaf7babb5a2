import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TestServer, startServer, unique } from '../support/server.js';
import { runDueActionPlanSteps } from '../../src/marketing/actionPlans/actionPlans.engine.js';
import { startActionPlan } from '../../src/marketing/actionPlans/actionPlans.service.js';
import { eventually } from '../support/eventually.js';
import { outboxEvents } from '../support/outbox.js';

const DAY = 86_400_000;
const START = Date.parse('2030-01-01T09:00:00Z');

function movableClock(start = START) {
  return {
    t: start,
    now() {
      return this.t;
    },
    advanceDays(days: number) {
      this.t += days * DAY;
    },
  };
}

async function planWithSteps(server: TestServer, key: string) {
  const template = await server.post(key, '/v1/templates', {
    name: 'Follow-up',
    subject: 'About %inquiry_address%',
    body: 'Hi %contact_first_name%, %agent_name% here.',
  });
  const plan = await server.post(key, '/v1/actionPlans', {
    name: 'New lead nurture',
    description: 'Call, email, then check in',
    steps: [
      { delayDays: 0, kind: 'task', taskType: 'Call', taskName: 'Call the new lead' },
      { delayDays: 2, kind: 'email', templateId: template.body.id },
      { delayDays: 5, kind: 'task', taskName: 'Check in' },
    ],
  });
  assert.equal(plan.status, 201, plan.text);
  return plan.body;
}

const countRows = async (server: TestServer, table: 'tasks' | 'emails', personId: number) =>
  (await server.ctx.db.selectFrom(table).select('id').where('person_id', '=', personId).execute())
    .length;

describe('action plans: CRUD and roles', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('creates, reads, lists, updates and deletes plans (Owner/Admin write, everyone reads)', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const admin = await account.addUser('Admin');
    const plan = await planWithSteps(server, account.owner.key);
    assert.equal(plan.status, 'Active');
    assert.deepEqual(
      plan.steps.map((s: { order: number; kind: string; delayDays: number }) => [
        s.order,
        s.kind,
        s.delayDays,
      ]),
      [
        [1, 'task', 0],
        [2, 'email', 2],
        [3, 'task', 5],
      ],
    );
    assert.equal(plan.steps[0].taskType, 'Call');
    assert.equal(plan.steps[2].taskType, 'Follow Up');
    assert.equal(plan.steps[1].taskName, null);

    assert.equal((await server.post(agent.key, '/v1/actionPlans', { name: 'Nope' })).status, 403);
    assert.equal(
      (await server.put(agent.key, `/v1/actionPlans/${plan.id}`, { name: 'Nope' })).status,
      403,
    );
    assert.equal((await server.del(agent.key, `/v1/actionPlans/${plan.id}`)).status, 403);
    const read = await server.get(agent.key, `/v1/actionPlans/${plan.id}`);
    assert.deepEqual(read.body, plan);
    const list = await server.get(agent.key, '/v1/actionPlans');
    assert.equal(list.body._metadata.collection, 'actionPlans');
    assert.deepEqual(list.body.actionPlans, [plan]);

    // Steps with an id are kept, the others created, the missing ones removed.
    const [first, , third] = plan.steps;
    const updated = await server.put(admin.key, `/v1/actionPlans/${plan.id}`, {
      status: 'Inactive',
      steps: [
        { id: third.id, delayDays: 7, kind: 'task', taskName: 'Check in later' },
        { delayDays: 1, kind: 'task', taskName: 'Text', taskType: 'Text' },
      ],
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.status, 'Inactive');
    assert.deepEqual(updated.body.steps.map((s: { id: number }) => s.id)[0], third.id);
    assert.equal(updated.body.steps[0].taskName, 'Check in later');
    assert.ok(!updated.body.steps.some((s: { id: number }) => s.id === first.id));
    assert.equal(
      (await server.get(agent.key, '/v1/actionPlans?status=Active')).body._metadata.total,
      0,
    );

    assert.equal((await server.del(admin.key, `/v1/actionPlans/${plan.id}`)).status, 204);
    assert.equal((await server.get(agent.key, `/v1/actionPlans/${plan.id}`)).status, 404);
  });

  it('validates steps: kind-specific fields, templates of the account, step ids of the plan', async () => {
    const { owner } = await server.newAccount();
    const other = await server.newAccount();
    const foreign = await server.post(other.owner.key, '/v1/templates', { name: 'Theirs' });
    const cases: [unknown, RegExp][] = [
      [[{ delayDays: 0, kind: 'task' }], /taskName/],
      [[{ delayDays: 0, kind: 'email' }], /templateId/],
      [[{ delayDays: 0, kind: 'email', templateId: foreign.body.id }], /template/],
      [[{ delayDays: 0, kind: 'task', taskName: 'x', templateId: foreign.body.id }], /templateId/],
      [[{ delayDays: -1, kind: 'task', taskName: 'x' }], /delayDays/],
      [[{ delayDays: 0, kind: 'sms', taskName: 'x' }], /kind/],
      [[{ delayDays: 0, kind: 'task', taskName: 'x', taskType: 'Party' }], /taskType/],
      [[{ delayDays: 0, kind: 'task', taskName: 'x', colour: 1 }], /colour/],
    ];
    for (const [steps, message] of cases) {
      const res = await server.post(owner.key, '/v1/actionPlans', { name: 'Bad', steps });
      assert.equal(res.status, 400, JSON.stringify(steps));
      assert.match(res.body.errorMessage, message);
    }
    const plan = await server.post(owner.key, '/v1/actionPlans', { name: 'Ok' });
    const otherPlan = await planWithSteps(server, owner.key);
    const wrongStep = await server.put(owner.key, `/v1/actionPlans/${plan.body.id}`, {
      steps: [{ id: otherPlan.steps[0].id, delayDays: 0, kind: 'task', taskName: 'x' }],
    });
    assert.equal(wrongStep.status, 400);
    assert.match(wrongStep.body.errorMessage, /not a step/);
    assert.equal(
      (await server.get(other.owner.key, `/v1/actionPlans/${plan.body.id}`)).status,
      404,
    );
    assert.equal(
      (await server.put(other.owner.key, `/v1/actionPlans/${plan.body.id}`, { name: 'x' })).status,
      404,
    );
    assert.equal(
      (await server.del(other.owner.key, `/v1/actionPlans/${plan.body.id}`)).status,
      404,
    );
  });
});

describe('actionPlansPeople: starting, visibility, pause and resume', () => {
  let server: TestServer;
  const clock = movableClock();
  before(async () => {
    server = await startServer({ clock });
  });
  after(async () => server.close());

  it('starts a plan for a person once, lists it by person and plan, and refuses what it must', async () => {
    const account = await server.newAccount();
    const agentA = await account.addUser('Agent');
    const agentB = await account.addUser('Agent');
    const lender = await account.addUser('Lender');
    const plan = await planWithSteps(server, account.owner.key);
    const ofA = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Ann',
      assignedUserId: agentA.id,
      assignedLenderId: lender.id,
    });
    const ofB = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Ben',
      assignedUserId: agentB.id,
    });

    const started = await server.post(agentA.key, '/v1/actionPlansPeople', {
      personId: ofA.body.id,
      actionPlanId: plan.id,
    });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.status, 'Running');
    assert.equal(started.body.personId, ofA.body.id);
    assert.equal(started.body.actionPlanId, plan.id);
    assert.equal(started.body.actionPlanName, 'New lead nurture');
    assert.equal(started.body.stepsCompleted, 0);
    assert.equal(started.body.started, new Date(clock.now()).toISOString().replace('.000', ''));

    const again = await server.post(account.owner.key, '/v1/actionPlansPeople', {
      personId: ofA.body.id,
      actionPlanId: plan.id,
    });
    assert.equal(again.status, 409);
    assert.equal(
      (
        await server.post(agentA.key, '/v1/actionPlansPeople', {
          personId: ofB.body.id,
          actionPlanId: plan.id,
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await server.post(lender.key, '/v1/actionPlansPeople', {
          personId: ofA.body.id,
          actionPlanId: plan.id,
        })
      ).status,
      403,
    );
    assert.equal(
      (
        await server.post(account.owner.key, '/v1/actionPlansPeople', {
          personId: ofA.body.id,
          actionPlanId: 999999,
        })
      ).status,
      400,
    );
    const inactive = await server.post(account.owner.key, '/v1/actionPlans', {
      name: 'Off',
      status: 'Inactive',
    });
    const refused = await server.post(account.owner.key, '/v1/actionPlansPeople', {
      personId: ofA.body.id,
      actionPlanId: inactive.body.id,
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.errorMessage, /Inactive/);
    assert.equal(
      (
        await server.post(account.owner.key, '/v1/actionPlansPeople', {
          personId: ofB.body.id,
          actionPlanId: plan.id,
        })
      ).status,
      201,
    );

    const all = await server.get(
      account.owner.key,
      `/v1/actionPlansPeople?actionPlanId=${plan.id}`,
    );
    assert.equal(all.body._metadata.collection, 'actionPlansPeople');
    assert.equal(all.body._metadata.total, 2);
    const byPerson = await server.get(
      account.owner.key,
      `/v1/actionPlansPeople?personId=${ofB.body.id}`,
    );
    assert.deepEqual(
      byPerson.body.actionPlansPeople.map((r: { personId: number }) => r.personId),
      [ofB.body.id],
    );
    const seenByA = await server.get(agentA.key, '/v1/actionPlansPeople');
    assert.deepEqual(
      seenByA.body.actionPlansPeople.map((r: { id: number }) => r.id),
      [started.body.id],
    );
    assert.equal(
      (await server.get(agentB.key, `/v1/actionPlansPeople/${started.body.id}`)).status,
      404,
    );
    assert.equal(
      (await server.get(lender.key, `/v1/actionPlansPeople/${started.body.id}`)).status,
      200,
    );
    assert.equal(
      (
        await server.put(lender.key, `/v1/actionPlansPeople/${started.body.id}`, {
          status: 'Paused',
        })
      ).status,
      403,
    );
    assert.equal(
      (
        await server.put(agentB.key, `/v1/actionPlansPeople/${started.body.id}`, {
          status: 'Paused',
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await server.put(agentA.key, `/v1/actionPlansPeople/${started.body.id}`, {
          status: 'Completed',
        })
      ).status,
      400,
    );

    const other = await server.newAccount();
    assert.equal(
      (await server.get(other.owner.key, `/v1/actionPlansPeople/${started.body.id}`)).status,
      404,
    );
    assert.equal(
      (await server.get(other.owner.key, '/v1/actionPlansPeople')).body._metadata.total,
      0,
    );
  });

  it('runs due steps in order, holds them while paused, runs them on resume, then completes', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent', 'Alice Agent');
    const plan = await planWithSteps(server, account.owner.key);
    const person = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Carl',
      emails: [{ value: `${unique('carl')}@example.com` }],
      source: 'homes.example',
      assignedUserId: agent.id,
    });
    const personId = person.body.id;
    const startedAt = clock.now();
    const run = await server.post(agent.key, '/v1/actionPlansPeople', {
      personId,
      actionPlanId: plan.id,
    });
    const path = `/v1/actionPlansPeople/${run.body.id}`;

    await runDueActionPlanSteps(server.ctx);
    assert.equal((await server.get(agent.key, path)).body.stepsCompleted, 1);
    const [task] = await server.ctx.db
      .selectFrom('tasks')
      .selectAll()
      .where('person_id', '=', personId)
      .execute();
    assert.equal(task.name, 'Call the new lead');
    assert.equal(task.type, 'Call');
    assert.equal(task.assigned_user_id, agent.id);
    assert.equal(task.due_date, new Date(startedAt).toISOString().slice(0, 10));
    assert.equal(await countRows(server, 'emails', personId), 0);

    const paused = await server.put(agent.key, path, { status: 'Paused' });
    assert.equal(paused.body.status, 'Paused');
    clock.advanceDays(3);
    await runDueActionPlanSteps(server.ctx);
    assert.equal(await countRows(server, 'emails', personId), 0, 'a paused plan does not advance');

    const resumed = await server.put(agent.key, path, { status: 'Running' });
    assert.equal(resumed.body.status, 'Running');
    await runDueActionPlanSteps(server.ctx);
    const emails = await server.ctx.db
      .selectFrom('emails')
      .selectAll()
      .where('person_id', '=', personId)
      .execute();
    assert.equal(emails.length, 1);
    assert.equal(emails[0].subject, 'About Your property inquiry from homes.example');
    assert.equal(emails[0].body, 'Hi Carl, Alice Agent here.');
    assert.equal(emails[0].user_id, agent.id);
    assert.equal(await countRows(server, 'tasks', personId), 1, 'the 5-day step is not due yet');
    assert.equal((await server.get(agent.key, path)).body.status, 'Running');
    const outbox = await outboxEvents(server, account.accountId);
    assert.ok(outbox.some((r) => r.event === 'emailsCreated'));
    assert.ok(outbox.some((r) => r.event === 'tasksCreated'));

    clock.advanceDays(3);
    await runDueActionPlanSteps(server.ctx);
    const done = await server.get(agent.key, path);
    assert.equal(done.body.status, 'Completed');
    assert.equal(done.body.stepsCompleted, 3);
    assert.ok(done.body.completed);
    assert.equal(await countRows(server, 'tasks', personId), 2);
    assert.equal((await server.put(agent.key, path, { status: 'Running' })).status, 409);
    assert.equal(
      (await server.get(agent.key, `/v1/actionPlansPeople?status=Completed&personId=${personId}`))
        .body._metadata.total,
      1,
    );
    // A completed run does not block starting the plan again.
    assert.equal(
      (await server.post(agent.key, '/v1/actionPlansPeople', { personId, actionPlanId: plan.id }))
        .status,
      201,
    );
  });

  it('runs each step exactly once when several engine passes race, and the database refuses a second run of a step', async () => {
    const { owner, accountId } = await server.newAccount();
    const plan = await server.post(owner.key, '/v1/actionPlans', {
      name: 'Burst',
      steps: [
        { delayDays: 0, kind: 'task', taskName: 'One' },
        { delayDays: 0, kind: 'task', taskName: 'Two' },
      ],
    });
    const people: number[] = [];
    for (let i = 0; i < 8; i++) {
      const p = await server.post(owner.key, '/v1/people', { firstName: `P${i}` });
      people.push(p.body.id);
      assert.equal(
        (
          await server.post(owner.key, '/v1/actionPlansPeople', {
            personId: p.body.id,
            actionPlanId: plan.body.id,
          })
        ).status,
        201,
      );
    }
    await Promise.all([
      runDueActionPlanSteps(server.ctx),
      runDueActionPlanSteps(server.ctx),
      runDueActionPlanSteps(server.ctx),
    ]);
    for (const personId of people) assert.equal(await countRows(server, 'tasks', personId), 2);
    const runs = await server.ctx.db
      .selectFrom('action_plan_step_runs')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute();
    assert.equal(runs.length, 16);
    const first = runs[0];
    await assert.rejects(
      server.ctx.db
        .insertInto('action_plan_step_runs')
        .values({
          account_id: accountId,
          plan_person_id: first.plan_person_id,
          step_id: first.step_id,
          due_at: first.due_at,
          executed_at: first.executed_at,
          task_id: null,
          email_id: null,
        })
        .execute(),
    );
  });

  it('startActionPlan starts nothing for unknown or inactive plans and is idempotent per person', async () => {
    const { owner, accountId } = await server.newAccount();
    const plan = await planWithSteps(server, owner.key);
    const person = await server.post(owner.key, '/v1/people', { firstName: 'Dora' });
    const at = new Date(clock.now()).toISOString().replace('.000', '');
    const start = (planId: number, acc = accountId) =>
      server.ctx.db
        .transaction()
        .execute((trx) => startActionPlan(trx, acc, person.body.id, planId, at));
    assert.equal(await start(999999), null);
    const other = await server.newAccount();
    assert.equal(await start(plan.id, other.accountId), null);
    const first = await start(plan.id);
    assert.deepEqual(first && { started: first.started }, { started: true });
    const second = await start(plan.id);
    assert.deepEqual(second, { id: first!.id, started: false });
    await server.put(owner.key, `/v1/actionPlans/${plan.id}`, { status: 'Inactive' });
    const otherPlan = await server.post(owner.key, '/v1/actionPlans', {
      name: 'Off',
      status: 'Inactive',
    });
    assert.equal(await start(otherPlan.body.id), null);
  });

  it("a new lead of a triggering type starts its lead flow's plan; POST /v1/people does not", async () => {
    const { owner } = await server.newAccount();
    const plan = await planWithSteps(server, owner.key);
    const source = `${unique('site')}.example`;
    const flow = await server.post(owner.key, '/v1/leadFlows', { source, actionPlanId: plan.id });
    assert.equal(flow.status, 201, flow.text);
    const lead = await server.post(owner.key, '/v1/events', {
      source,
      system: 'Tests',
      type: 'Registration',
      person: { firstName: 'Lou', emails: [{ value: `${unique('lou')}@example.com` }] },
    });
    assert.equal(lead.status, 201, lead.text);
    const runs = await server.get(owner.key, `/v1/actionPlansPeople?personId=${lead.body.id}`);
    assert.deepEqual(
      runs.body.actionPlansPeople.map((r: { actionPlanId: number; status: string }) => [
        r.actionPlanId,
        r.status,
      ]),
      [[plan.id, 'Running']],
    );
    const direct = await server.post(owner.key, '/v1/people', { firstName: 'Manual', source });
    assert.equal(
      (await server.get(owner.key, `/v1/actionPlansPeople?personId=${direct.body.id}`)).body
        ._metadata.total,
      0,
    );
    // Deleting the plan detaches it from the flow.
    assert.equal((await server.del(owner.key, `/v1/actionPlans/${plan.id}`)).status, 204);
    assert.equal(
      (await server.get(owner.key, `/v1/leadFlows/${flow.body.id}`)).body.actionPlanId,
      null,
    );
  });
});

describe('action plans: the background worker survives a restart mid-plan', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-plans-restart-'));
  const databaseUrl = process.env.TEST_DATABASE_URL || `sqlite:${path.join(dir, 'hearth.db')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs each step exactly once across a stop and a start on the same database', async () => {
    const clock = movableClock();
    const first = await startServer({ env: { DATABASE_URL: databaseUrl }, worker: true, clock });
    const account = await first.newAccount();
    const plan = await planWithSteps(first, account.owner.key);
    const person = await first.post(account.owner.key, '/v1/people', {
      firstName: 'Rita',
      emails: [{ value: `${unique('rita')}@example.com` }],
    });
    const personId = person.body.id;
    const run = await first.post(account.owner.key, '/v1/actionPlansPeople', {
      personId,
      actionPlanId: plan.id,
    });
    const path = `/v1/actionPlansPeople/${run.body.id}`;
    await eventually(
      'step 1 to run',
      async () => (await first.get(account.owner.key, path)).body.stepsCompleted === 1,
    );
    assert.equal(await countRows(first, 'tasks', personId), 1);
    await first.close();

    const second = await startServer({ env: { DATABASE_URL: databaseUrl }, worker: true, clock });
    try {
      clock.advanceDays(2);
      await eventually(
        'step 2 to run',
        async () => (await second.get(account.owner.key, path)).body.stepsCompleted === 2,
      );
      assert.equal(
        await countRows(second, 'tasks', personId),
        1,
        'step 1 was not repeated after the restart',
      );
      assert.equal(await countRows(second, 'emails', personId), 1);
      clock.advanceDays(3);
      const done = await eventually('the plan to complete', async () => {
        const res = await second.get(account.owner.key, path);
        return res.body.status === 'Completed' && res.body;
      });
      assert.equal(done.stepsCompleted, 3);
      assert.equal(await countRows(second, 'tasks', personId), 2);
      assert.equal(await countRows(second, 'emails', personId), 1);
      const runs = await second.ctx.db
        .selectFrom('action_plan_step_runs')
        .select('step_id')
        .where('plan_person_id', '=', run.body.id)
        .execute();
      assert.deepEqual(
        runs.map((r) => r.step_id).sort((a, b) => a - b),
        plan.steps.map((s: { id: number }) => s.id).sort((a: number, b: number) => a - b),
      );
    } finally {
      await second.close();
    }
  });
});
