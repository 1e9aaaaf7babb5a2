import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer, unique } from '../support/server.js';
import { exitOf, waitFor, workerProcesses } from '../support/process.js';
import { upload, waitForImport } from './imports-helpers.js';

describe('bulk actions: a killed worker', () => {
  let server: TestServer;
  const workers = workerProcesses();

  before(async () => {
    // The API runs here; the jobs run in worker processes of their own, which the test kills.
    server = await startServer({ worker: false });
  });
  after(async () => {
    workers.killAll();
    await server.close();
  });

  const startWorker = () => workers.start(server);

  it('is resumed by another worker after kill -9, and every person is changed once', async () => {
    const { owner, accountId } = await server.newAccount();
    const tag = unique('resume').toLowerCase();
    const count = 4000;
    const rows = ['First Name,Last Name,Email,Tags'];
    for (let i = 0; i < count; i++) rows.push(`P${i},Row,${tag}-${i}@example.com,${tag}`);
    const first = startWorker();
    const imported = await upload(server, owner.key, rows.join('\n'));
    assert.equal(imported.status, 202, imported.text);
    assert.equal(
      (await waitForImport(server, owner.key, imported.body.id, 150_000)).created,
      count,
    );
    const stages = (await server.get(owner.key, '/v1/stages?limit=100')).body.stages;
    const nurture = stages.find((s: { name: string }) => s.name === 'Nurture').id;

    const res = await server.post(owner.key, '/v1/peopleBulkActions', {
      action: 'stage',
      value: nurture,
      filter: { tags: tag },
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.total, count);
    const id = res.body.id;
    let processedAtKill = 0;
    await waitFor(async () => {
      processedAtKill = (await server.get(owner.key, `/v1/peopleBulkActions/${id}`)).body.processed;
      return processedAtKill >= 300;
    }, 120_000);
    first.kill('SIGKILL');
    await exitOf(first);
    const stopped = (await server.get(owner.key, `/v1/peopleBulkActions/${id}`)).body;
    assert.equal(stopped.status, 'running', 'the action was still under way when killed');
    assert.ok(stopped.processed < count);

    startWorker();
    let done: Record<string, unknown> = {};
    await waitFor(async () => {
      done = (await server.get(owner.key, `/v1/peopleBulkActions/${id}`)).body;
      return done.status === 'done';
    }, 150_000);
    assert.deepEqual(
      [done.processed, done.changed, done.skipped],
      [count, count, 0],
      JSON.stringify(done),
    );
    const inNurture = await server.get(
      owner.key,
      `/v1/people?stageId=${nurture}&tags=${tag}&limit=1`,
    );
    assert.equal(inNurture.body._metadata.total, count);
    // Each person's stage changed once: one timeline entry each, none twice.
    const changes = await server.ctx.db
      .selectFrom('person_changes')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.count<number>('person_id').distinct().as('people'),
      ])
      .where('account_id', '=', accountId)
      .where('field', '=', 'stage')
      .executeTakeFirstOrThrow();
    assert.deepEqual([Number(changes.n), Number(changes.people)], [count, count]);
  });
});
