import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { type TestServer, startServer, unique } from '../support/server.js';
import { exitOf, waitFor, workerProcesses } from '../support/process.js';
import { type Receiver, startReceiver, testCa } from '../accounts/webhooks/receiver.js';
import {
  completedRuns,
  createAutomation,
  personOf,
  systemClient,
  tasksOf,
} from './automations-helpers.js';

describe('automations: a worker killed with SIGKILL', () => {
  let server: TestServer;
  let receiver: Receiver;
  let caFile: string;
  const workers = workerProcesses();

  before(async () => {
    caFile = (await testCa()).file;
    // The API runs here; the runs run in worker processes of their own, which the test kills.
    server = await startServer({ worker: false, env: { HEARTH_WEBHOOK_ALLOW_PRIVATE: '1' } });
    receiver = await startReceiver();
  });
  after(async () => {
    workers.killAll();
    await receiver?.close();
    await server?.close();
  });

  const startWorker = () =>
    workers.start(server, {
      HEARTH_WEBHOOK_ALLOW_PRIVATE: '1',
      HEARTH_WEBHOOK_CA: caFile,
      HEARTH_WEBHOOK_TIMEOUT: '3',
    });
  const kill = async (child: ChildProcess) => {
    child.kill('SIGKILL');
    await exitOf(child);
  };

  it('during an action and during a wait: after restarts each action happened exactly once', async () => {
    const { owner } = await server.newAccount();
    const api = systemClient(server, await server.newSystem());
    const tag = unique('durable');
    await createAutomation(api, owner.key, {
      trigger: { type: 'tagAdded', tag },
      actions: [
        { type: 'createTask', name: 'Before' },
        { type: 'webhook', url: receiver.url },
        { type: 'createTask', name: 'After' },
        { type: 'wait', seconds: 4 },
        { type: 'createTask', name: 'Last' },
        { type: 'addTag', tag: 'done' },
      ],
    });
    // The receiver holds the first call open: the worker is killed while the action is under way.
    receiver.respond(() => undefined);
    const person = await server.newPerson(owner.key, { tags: [tag] });
    const first = startWorker();
    await waitFor(() => receiver.received.length >= 1);
    await kill(first);
    receiver.respond((_r, res) => res.writeHead(200).end('ok'));

    const second = startWorker();
    const [run] = (await api.get(owner.key, `/v1/automationsPeople?personId=${person.id}`)).body
      .automationspeople;
    await waitFor(async () => {
      const now = (await api.get(owner.key, `/v1/automationsPeople/${run.id}`)).body;
      return now.stepsCompleted === 4 && now.waitingUntil !== null;
    });
    await kill(second);
    assert.deepEqual((await tasksOf(server, owner.key, person.id)).map((t) => t.name).sort(), [
      'After',
      'Before',
    ]);

    startWorker();
    await completedRuns(api, owner.key, person.id);
    assert.deepEqual((await tasksOf(server, owner.key, person.id)).map((t) => t.name).sort(), [
      'After',
      'Before',
      'Last',
    ]);
    assert.deepEqual((await personOf(server, owner.key, person.id)).tags, [tag, 'done']);
    // The webhook is at least once: the call cut off by the kill came again, with the same step id.
    const steps = new Set(receiver.received.map((r) => r.headers['hearth-automation-step']));
    assert.deepEqual([...steps], [`${run.id}-1`]);
    assert.ok(receiver.received.length >= 2);
  });
});
