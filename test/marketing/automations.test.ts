import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';
import { type Receiver, startReceiver, testCa } from '../accounts/webhooks/receiver.js';
import {
  completedRuns,
  createAutomation,
  personOf,
  runsOf,
  type SystemClient,
  systemClient,
  tasksOf,
} from './automations-helpers.js';

describe('automations: triggers and actions', () => {
  let server: TestServer;
  let receiver: Receiver;
  let account: TestAccount;
  let api: SystemClient;
  let key: string;
  before(async () => {
    server = await startServer({
      worker: true,
      env: {
        HEARTH_WEBHOOK_ALLOW_PRIVATE: '1',
        HEARTH_WEBHOOK_CA: (await testCa()).file,
        HEARTH_WEBHOOK_TIMEOUT: '2',
      },
    });
    receiver = await startReceiver();
    account = await server.newAccount();
    key = account.owner.key;
    api = systemClient(server, await server.newSystem());
  });
  after(async () => {
    await receiver?.close();
    await server?.close();
  });

  it('tagAdded with a source condition: creates the task, tags, changes the stage, notifies', async () => {
    const tag = unique('hot');
    const id = await createAutomation(api, key, {
      trigger: { type: 'tagAdded', tag, conditions: { source: 'Zillow' } },
      actions: [
        { type: 'createTask', name: 'Call now', taskType: 'Call', dueInDays: 1 },
        { type: 'addTag', tag: 'called' },
        { type: 'changeStage', stage: 'Prospect' },
        { type: 'notify', message: 'Hot lead from Zillow' },
      ],
    });
    const zillow = await server.newPerson(key, { source: 'Zillow' });
    const other = await server.newPerson(key, { source: 'Other' });
    for (const p of [zillow, other])
      assert.equal(
        (await server.put(key, `/v1/people/${p.id}?mergeTags=true`, { tags: [tag] })).status,
        200,
      );
    const [run] = await completedRuns(api, key, zillow.id);
    assert.equal(run.automationId, id);
    const tasks = await tasksOf(server, key, zillow.id);
    assert.deepEqual(
      tasks.map((t) => [t.name, t.type, t.assignedUserId]),
      [['Call now', 'Call', account.owner.id]],
    );
    const person = await personOf(server, key, zillow.id);
    assert.deepEqual(person.tags.sort(), ['called', tag].sort());
    assert.equal(person.stage, 'Prospect');
    const notes = await server.get(key, '/v1/notifications?limit=100');
    assert.ok(
      notes.body.notifications.some((n: { title: string }) => n.title === 'Hot lead from Zillow'),
    );
    // The other source met no condition.
    assert.deepEqual(await runsOf(api, key, other.id), []);
    const listed = await api.get(key, `/v1/automations/${id}`);
    assert.equal(listed.body.peopleRunning, 0);
  });

  it('personCreated (sources), stageChanged and dealStageChanged start runs', async () => {
    const created = await createAutomation(api, key, {
      trigger: { type: 'personCreated', sources: ['Realtor.com'] },
      actions: [{ type: 'addTag', tag: 'welcomed' }],
    });
    const staged = await createAutomation(api, key, {
      trigger: { type: 'stageChanged', stage: 'Nurture' },
      actions: [{ type: 'removeTag', tag: 'welcomed' }],
    });
    const lead = await server.newPerson(key, { source: 'Realtor.com' });
    const [first] = await completedRuns(api, key, lead.id);
    assert.equal(first.automationId, created);
    assert.deepEqual((await personOf(server, key, lead.id)).tags, ['welcomed']);
    await server.put(key, `/v1/people/${lead.id}`, { stage: 'Nurture' });
    const runs = await completedRuns(api, key, lead.id, 2);
    assert.ok(runs.some((r) => r.automationId === staged));
    assert.deepEqual((await personOf(server, key, lead.id)).tags, []);

    const pipeline = await server.post(key, '/v1/pipelines', {
      name: unique('Buyers'),
      stages: [{ name: 'Offer' }, { name: 'Closed' }],
    });
    assert.equal(pipeline.status, 201, pipeline.text);
    const [offer, closed] = pipeline.body.stages.map((s: { id: number }) => s.id);
    const dealAutomation = await createAutomation(api, key, {
      trigger: { type: 'dealStageChanged', pipelineId: pipeline.body.id, stageId: closed },
      actions: [{ type: 'createTask', name: 'Ask for a review' }],
    });
    const buyer = await server.newPerson(key);
    const deal = await server.post(key, '/v1/deals', {
      name: '12 Oak St',
      stageId: offer,
      peopleIds: [buyer.id],
    });
    assert.equal(deal.status, 201, deal.text);
    assert.equal(
      (await server.put(key, `/v1/deals/${deal.body.id}`, { stageId: closed })).status,
      200,
    );
    const [dealRun] = await completedRuns(api, key, buyer.id);
    assert.equal(dealRun.automationId, dealAutomation);
    assert.deepEqual(
      (await tasksOf(server, key, buyer.id)).map((t) => t.name),
      ['Ask for a review'],
    );
  });

  it('assigns (user, pond, group), logs a template email, starts an action plan, calls a webhook', async () => {
    const agent = await account.addUser('Agent');
    const pond = await server.post(key, '/v1/ponds', {
      name: unique('Pond'),
      userId: agent.id,
      userIds: [agent.id],
    });
    assert.equal(pond.status, 201, pond.text);
    const group = await server.post(key, '/v1/groups', {
      name: unique('Group'),
      users: [agent.id],
    });
    assert.equal(group.status, 201, group.text);
    const template = await server.post(key, '/v1/templates', {
      name: unique('Welcome'),
      subject: 'Welcome %contact_first_name%',
      body: 'Hello',
    });
    assert.equal(template.status, 201, template.text);
    const plan = await server.post(key, '/v1/actionPlans', {
      name: unique('Plan'),
      status: 'Active',
      steps: [{ delayDays: 3, kind: 'task', taskName: 'Plan task' }],
    });
    assert.equal(plan.status, 201, plan.text);
    const tag = unique('go');
    const id = await createAutomation(api, key, {
      trigger: { type: 'tagAdded', tag },
      actions: [
        { type: 'assign', pondId: pond.body.id },
        { type: 'assign', groupId: group.body.id },
        { type: 'sendEmail', templateId: template.body.id },
        { type: 'startActionPlan', actionPlanId: plan.body.id },
        { type: 'webhook', url: receiver.url },
        { type: 'assign', userId: account.owner.id },
      ],
    });
    const person = await server.newPerson(key, { firstName: 'Ada', tags: [tag] });
    const [run] = await completedRuns(api, key, person.id);
    assert.equal((await personOf(server, key, person.id)).assignedUserId, account.owner.id);
    const emails = await server.get(key, `/v1/emails?personId=${person.id}`);
    assert.deepEqual(
      emails.body.emails.map((e: { subject: string }) => e.subject),
      ['Welcome Ada'],
    );
    const plans = await server.get(key, `/v1/actionPlansPeople?personId=${person.id}`);
    assert.deepEqual(
      plans.body.actionPlansPeople.map((p: { actionPlanId: number }) => p.actionPlanId),
      [plan.body.id],
    );
    const calls = receiver.received.filter((r) => r.json?.automationPersonId === run.id);
    assert.equal(calls.length, 1);
    assert.deepEqual(
      { ...calls[0].json, uri: undefined },
      {
        event: 'automationStep',
        automationId: id,
        automationPersonId: run.id,
        personId: person.id,
        step: 4,
        uri: undefined,
      },
    );
    assert.equal(calls[0].headers['hearth-automation-step'], `${run.id}-4`);
  });

  it('refuses what cannot run, naming the field', async () => {
    const bad = [
      [{ type: 'stageChanged', stage: 'Nowhere' }, [{ type: 'addTag', tag: 'x' }], 'trigger.stage'],
      [{ type: 'tagAdded', tag: 'a' }, [{ type: 'assign', userId: 1, pondId: 1 }], 'actions[0]'],
      [{ type: 'tagAdded', tag: 'a' }, [{ type: 'webhook', url: 'http://example.com/x' }], 'url'],
      [
        { type: 'tagAdded', tag: 'a' },
        [{ type: 'sendEmail', templateId: 999999 }],
        'actions[0].templateId',
      ],
      [{ type: 'tagAdded', tag: 'a' }, [], 'actions'],
      [{ type: 'rain' }, [{ type: 'addTag', tag: 'x' }], 'trigger'],
    ] as const;
    for (const [trigger, actions, field] of bad) {
      const res = await api.post(key, '/v1/automations', { name: 'Bad', trigger, actions });
      assert.equal(res.status, 400, res.text);
      assert.ok(res.body.errorMessage.includes(field), `${res.body.errorMessage} names ${field}`);
    }
  });
});
