import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';
import { eventually } from '../support/eventually.js';
import { asBrowser, givePassword, signIn } from '../support/auth.js';
import { isoSeconds } from '../../src/platform/time.js';
import { RUNS_PER_PERSON_PER_DAY } from '../../src/marketing/automations/runs.js';
import { scanScheduledTriggers } from '../../src/marketing/automations/scan.js';
import {
  completedRuns,
  createAutomation,
  personOf,
  runsOf,
  type SystemClient,
  systemClient,
  tasksOf,
} from './automations-helpers.js';

const DAY = 86_400_000;

describe('automations: runs, the loop rule, scheduled triggers, access', () => {
  let server: TestServer;
  let account: TestAccount;
  let api: SystemClient;
  let key: string;
  before(async () => {
    server = await startServer({ worker: true });
    account = await server.newAccount();
    key = account.owner.key;
    api = systemClient(server, await server.newSystem());
  });
  after(async () => {
    await server?.close();
  });

  const runOf = async (id: number) => (await api.get(key, `/v1/automationsPeople/${id}`)).body;
  const waiting = (id: number) =>
    eventually(`run ${id} waiting`, async () => {
      const run = await runOf(id);
      return run.status === 'Running' && run.waitingUntil !== null && run.stepsCompleted === 2;
    });

  it('a wait holds the run; pause keeps it past the wait, resume continues where it was', async () => {
    const automationId = await createAutomation(api, key, {
      trigger: { type: 'tagAdded', tag: unique('never') },
      actions: [
        { type: 'addTag', tag: 'first' },
        { type: 'wait', seconds: 2 },
        { type: 'addTag', tag: 'second' },
      ],
    });
    const person = await server.newPerson(key);
    const started = await api.post(key, '/v1/automationsPeople', {
      automationId,
      personId: person.id,
    });
    assert.equal(started.status, 201, started.text);
    assert.equal(started.body.personId, person.id);
    const again = await api.post(key, '/v1/automationsPeople', {
      automationId,
      personId: person.id,
    });
    assert.equal(again.status, 409, 'one live run per person and automation');
    const runId = started.body.id;
    await waiting(runId);
    const paused = await api.put(key, `/v1/automationsPeople/${runId}`, { status: 'Paused' });
    assert.equal(paused.body.status, 'Paused');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.deepEqual((await personOf(server, key, person.id)).tags, ['first']);
    assert.equal((await runOf(runId)).status, 'Paused');
    await api.put(key, `/v1/automationsPeople/${runId}`, { status: 'Running' });
    await completedRuns(api, key, person.id);
    assert.deepEqual((await personOf(server, key, person.id)).tags, ['first', 'second']);
    const done = await api.put(key, `/v1/automationsPeople/${runId}`, { status: 'Paused' });
    assert.equal(done.status, 409, 'a completed run stays completed');
  });

  it('cancel ends a run during its wait; deleting the person stops theirs', async () => {
    const automationId = await createAutomation(api, key, {
      trigger: { type: 'tagAdded', tag: unique('never') },
      actions: [
        { type: 'addTag', tag: 'first' },
        { type: 'wait', seconds: 5 },
        { type: 'createTask', name: 'After the wait' },
      ],
    });
    const [kept, gone] = [await server.newPerson(key), await server.newPerson(key)];
    const runs: number[] = [];
    for (const p of [kept, gone]) {
      const res = await api.post(key, '/v1/automationsPeople', { automationId, personId: p.id });
      runs.push(res.body.id);
    }
    await Promise.all(runs.map(waiting));
    const cancelled = await api.put(key, `/v1/automationsPeople/${runs[0]}`, {
      status: 'Cancelled',
    });
    assert.equal(cancelled.body.status, 'Cancelled', JSON.stringify(cancelled.body));
    const del = await server.del(key, `/v1/people/${gone.id}`);
    assert.equal(del.status, 204, JSON.stringify(del.body));
    await eventually('the wait jobs finished', async () => {
      const jobs = await server.ctx.db
        .selectFrom('lead_jobs')
        .select(['status', 'payload'])
        .where('kind', '=', 'automationRun')
        .where('account_id', '=', account.accountId)
        .execute();
      const ours = jobs.filter((j) => runs.includes(JSON.parse(j.payload).runId));
      return ours.length > 0 && ours.every((j) => j.status === 'done');
    });
    assert.deepEqual(await tasksOf(server, key, kept.id), []);
    assert.equal((await runOf(runs[0])).status, 'Cancelled');
    assert.equal((await api.get(key, `/v1/automationsPeople/${runs[1]}`)).status, 404);
  });

  it('an action never restarts its own automation; chains between automations stop at the ceiling', async () => {
    const self = unique('self');
    const own = await createAutomation(api, key, {
      trigger: { type: 'tagAdded', tag: self },
      actions: [
        { type: 'removeTag', tag: self },
        { type: 'addTag', tag: self },
      ],
    });
    const looped = await server.newPerson(key, { tags: [self] });
    const [run] = await completedRuns(api, key, looped.id);
    assert.equal(run.automationId, own);

    const [ping, pong] = [unique('ping'), unique('pong')];
    await createAutomation(api, key, {
      trigger: { type: 'tagAdded', tag: ping },
      actions: [
        { type: 'removeTag', tag: pong },
        { type: 'addTag', tag: pong },
      ],
    });
    await createAutomation(api, key, {
      trigger: { type: 'tagAdded', tag: pong },
      actions: [
        { type: 'removeTag', tag: ping },
        { type: 'addTag', tag: ping },
      ],
    });
    const chained = await server.newPerson(key, { tags: [ping] });
    await completedRuns(api, key, chained.id, RUNS_PER_PERSON_PER_DAY);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal((await runsOf(api, key, chained.id)).length, RUNS_PER_PERSON_PER_DAY);
  });

  it('dateReached and noContact start the people whose day came, from the scheduled scan', async () => {
    const { owner, accountId } = await server.newAccount();
    const client = systemClient(server, await server.newSystem());
    const joined = await createAutomation(client, owner.key, {
      trigger: { type: 'dateReached', field: 'created', offsetDays: 30 },
      actions: [{ type: 'addTag', tag: 'month' }],
    });
    const quiet = await createAutomation(client, owner.key, {
      trigger: { type: 'noContact', days: 14, conditions: { tags: ['buyer'] } },
      actions: [{ type: 'addTag', tag: 'quiet' }],
    });
    const now = Date.now();
    const people = [];
    for (let i = 0; i < 4; i++) people.push(await server.newPerson(owner.key, { tags: ['buyer'] }));
    const set = (id: number, values: { created_at?: string; last_activity?: string | null }) =>
      server.ctx.db.updateTable('people').set(values).where('id', '=', id).execute();
    await set(people[0].id, { created_at: isoSeconds(now - 30 * DAY - 5000) }); // its 30th day
    await set(people[1].id, { created_at: isoSeconds(now - 31 * DAY) }); // a day before the scan looked
    await set(people[2].id, { last_activity: isoSeconds(now - 14 * DAY - 5000) }); // 14 days quiet
    await set(people[3].id, { last_activity: isoSeconds(now - DAY) });
    // The automations armed a minute ago: the scan looks at that minute.
    await server.ctx.db
      .updateTable('automations')
      .set({ scanned_until: isoSeconds(now - 60_000) })
      .where('account_id', '=', accountId)
      .execute();
    assert.equal(await scanScheduledTriggers(server.ctx), 2);
    assert.equal(await scanScheduledTriggers(server.ctx), 0, 'a window is scanned once');
    assert.equal((await completedRuns(client, owner.key, people[0].id))[0].automationId, joined);
    assert.equal((await completedRuns(client, owner.key, people[2].id))[0].automationId, quiet);
    for (const p of [people[1], people[3]])
      assert.deepEqual(await runsOf(client, owner.key, p.id), []);
  });

  it('API keys need a registered system; the web session needs none; roles as documented', async () => {
    const agent = await account.addUser('Agent');
    const noSystem = await server.get(key, '/v1/automations');
    assert.equal(noSystem.status, 403);
    assert.match(noSystem.body.errorMessage, /X-System-Key/);
    const system = await server.newSystem();
    const wrongKey = await server.get(key, '/v1/automationsPeople', {
      'X-System': system.name,
      'X-System-Key': 'hsk_wrong',
    });
    assert.equal(wrongKey.status, 403);
    assert.equal((await api.get(agent.key, '/v1/automations')).status, 200);
    const body = {
      name: 'By an agent',
      trigger: { type: 'tagAdded', tag: 'x' },
      actions: [{ type: 'addTag', tag: 'y' }],
    };
    assert.equal((await api.post(agent.key, '/v1/automations', body)).status, 403);
    const session = await signIn(server, (await givePassword(server, account.owner)).email);
    const made = await asBrowser(server, session, 'POST', '/v1/automations', { body });
    assert.equal(made.status, 201, made.text);
    const id = made.body.id;
    assert.equal(
      (await api.put(agent.key, `/v1/automations/${id}`, { status: 'Inactive' })).status,
      403,
    );
    assert.equal((await api.del(agent.key, `/v1/automations/${id}`)).status, 403);
    const changed = await api.put(key, `/v1/automations/${id}`, { status: 'Inactive' });
    assert.equal(changed.body.status, 'Inactive');
    const person = await server.newPerson(key);
    const inactive = await api.post(key, '/v1/automationsPeople', {
      automationId: id,
      personId: person.id,
    });
    assert.equal(inactive.status, 400);
    assert.equal((await api.del(key, `/v1/automations/${id}`)).status, 204);
    assert.equal((await api.get(key, `/v1/automations/${id}`)).status, 404);
    const other = await server.newAccount();
    const foreign = await api.post(other.owner.key, '/v1/automationsPeople', {
      automationId: id,
      personId: person.id,
    });
    assert.equal(foreign.status, 404, 'another account sees neither');
  });
});
