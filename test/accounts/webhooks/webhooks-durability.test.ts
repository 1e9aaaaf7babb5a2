import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { type TestServer, PUBLIC_URL, startServer } from '../../support/server.js';
import { emit } from '../../../src/accounts/webhooks/outbox.js';
import { eventually, type Receiver, startReceiver, testCa } from './receiver.js';
import { ROOT, entryPoint } from '../../support/process.js';

const SECRET = 'durability-test-secret-0123456789abcdef';

describe('webhooks: durability', () => {
  let server: TestServer;
  let receiver: Receiver;
  let caFile: string;
  const children: ChildProcess[] = [];
  before(async () => {
    caFile = (await testCa()).file;
    // API only: deliveries come from the worker processes this test starts and kills.
    server = await startServer({
      env: {
        HEARTH_SECRET: SECRET,
        HEARTH_WEBHOOK_ALLOW_PRIVATE: '1',
        HEARTH_WEBHOOK_CA: caFile,
        HEARTH_WEBHOOK_TIMEOUT: '1',
      },
    });
    receiver = await startReceiver();
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await receiver.close();
    await server.close();
  });

  function spawnWorker(): ChildProcess {
    const child = spawn(process.execPath, entryPoint('server'), {
      cwd: ROOT,
      env: {
        ...process.env,
        HEARTH_ROLE: 'worker',
        DATABASE_URL: server.ctx.config.databaseUrl,
        HEARTH_DATA_DIR: server.dataDir,
        HEARTH_PUBLIC_URL: PUBLIC_URL,
        HEARTH_SECRET: SECRET,
        HEARTH_WEBHOOK_ALLOW_PRIVATE: '1',
        HEARTH_WEBHOOK_CA: caFile,
        HEARTH_WEBHOOK_TIMEOUT: '1',
        HEARTH_WEBHOOK_RETRY_SCHEDULE: '0.5',
        HEARTH_LOG_LEVEL: 'warn',
        PORT: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    return child;
  }

  it('loses no event when a worker is killed with SIGKILL mid-delivery', async () => {
    const account = await server.newAccount();
    const system = await server.newSystem();
    const reg = await server.post(
      account.owner.key,
      '/v1/webhooks',
      { event: 'notesCreated', url: receiver.url },
      { 'x-system': system.name, 'x-system-key': system.key },
    );
    assert.equal(reg.status, 201, reg.text);
    const total = 40;
    for (let i = 1; i <= total; i++)
      await server.ctx.db
        .transaction()
        .execute((trx) => emit(trx, account.accountId, 'notesCreated', [i]));
    // Slow answers, so the kill lands while requests are in flight.
    receiver.respond((_r, res) => {
      setTimeout(() => res.writeHead(200).end(), 60);
    });

    const first = spawnWorker();
    await receiver.waitFor(5, 30_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const seenBeforeCrash = new Set(receiver.received.map((r) => r.json.resourceIds[0]));
    assert.ok(seenBeforeCrash.size < total, 'the crash happened before everything was delivered');

    receiver.respond((_r, res) => res.writeHead(200).end());
    const second = spawnWorker();
    await eventually(
      async () => new Set(receiver.received.map((r) => r.json.resourceIds[0])).size === total,
      40_000,
      'every event after restart',
    );
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
    const ids = new Set(receiver.received.map((r) => r.json.resourceIds[0]));
    assert.deepEqual(
      [...ids].sort((a, b) => a - b),
      Array.from({ length: total }, (_, i) => i + 1),
    );
  });
});

describe('webhooks: two workers on PostgreSQL', () => {
  it(
    'never sends the same attempt twice',
    { skip: process.env.TEST_DATABASE_URL ? false : 'needs PostgreSQL: set TEST_DATABASE_URL' },
    async () => {
      const caFile = (await testCa()).file;
      const env = {
        HEARTH_SECRET: 'two-workers-test-secret-0123456789abcdef',
        HEARTH_WEBHOOK_ALLOW_PRIVATE: '1',
        HEARTH_WEBHOOK_CA: caFile,
      };
      const a = await startServer({ worker: true, env });
      const b = await startServer({ worker: true, api: false, env });
      const receiver = await startReceiver();
      try {
        receiver.respond((_r, res) => {
          setTimeout(() => res.writeHead(200).end(), 5);
        });
        const account = await a.newAccount();
        const hooks: number[] = [];
        for (let s = 0; s < 4; s++) {
          const system = await a.newSystem();
          const reg = await a.post(
            account.owner.key,
            '/v1/webhooks',
            { event: 'tasksCreated', url: receiver.url },
            { 'x-system': system.name, 'x-system-key': system.key },
          );
          assert.equal(reg.status, 201, reg.text);
          hooks.push(reg.body.id);
        }
        const total = 60;
        for (let i = 1; i <= total; i++)
          await a.ctx.db
            .transaction()
            .execute((trx) => emit(trx, account.accountId, 'tasksCreated', [i]));
        await receiver.waitFor(total * hooks.length, 60_000);
        const attemptRows = () =>
          a.ctx.db
            .selectFrom('webhook_attempts')
            .select(['delivery_id', 'attempt'])
            .where('webhook_id', 'in', hooks)
            .execute();
        // Outcomes are written in batches after the answers arrive: wait until all are recorded,
        // then a little longer, so a duplicate sent late would still be counted below.
        await eventually(
          async () => (await attemptRows()).length >= total * hooks.length,
          30_000,
          'every attempt recorded',
        );
        await new Promise((r) => setTimeout(r, 500));
        const sent = receiver.received.map(
          (r) => `${r.headers['webhook-id']}|${r.headers['hearth-signature']}`,
        );
        assert.equal(sent.length, total * hooks.length);
        assert.equal(new Set(sent).size, sent.length, 'no delivery was sent twice');
        const attempts = await attemptRows();
        assert.equal(attempts.length, total * hooks.length);
        assert.ok(attempts.every((x) => x.attempt === 1));
      } finally {
        await receiver.close();
        await b.close();
        await a.close();
      }
    },
  );
});
