import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestServer, startServer } from '../support/server.js';
import { exitOf, waitFor, workerProcesses } from '../support/process.js';
import { allPeople, upload, waitForImport } from './imports-helpers.js';

describe('imports: a killed worker', () => {
  let server: TestServer;
  const workers = workerProcesses();

  before(async () => {
    // The API runs here; the import runs in worker processes of its own, which the test kills.
    server = await startServer({ worker: false });
  });
  after(async () => {
    workers.killAll();
    await server.close();
  });

  const startWorker = () => workers.start(server);

  it('is resumed by another worker after kill -9, and nobody is imported twice', async () => {
    const { owner } = await server.newAccount();
    const known = await server.post(owner.key, '/v1/people', {
      firstName: 'Known',
      emails: ['p7@example.com'],
    });
    assert.equal(known.status, 201);
    const rows = ['First Name,Last Name,Email,Phone'];
    const count = 6000;
    for (let i = 0; i < count; i++) rows.push(`P${i},Row,p${i}@example.com,555-${100000 + i}`);
    // The same people again at the end (by phone): within-file duplicates.
    for (let i = 0; i < 300; i++) rows.push(`P${i},Again,,555-${100000 + i}`);
    const res = await upload(server, owner.key, rows.join('\n'));
    assert.equal(res.status, 202, res.text);
    const id = res.body.id;

    const first = startWorker();
    let processedAtKill = 0;
    await waitFor(async () => {
      const now = await server.get(owner.key, `/v1/imports/${id}`);
      processedAtKill = now.body.processed;
      return processedAtKill >= 500;
    }, 120_000);
    first.kill('SIGKILL');
    await exitOf(first);
    const stopped = await server.get(owner.key, `/v1/imports/${id}`);
    assert.equal(stopped.body.status, 'running');
    assert.ok(stopped.body.processed < stopped.body.total, 'killed half-way');

    startWorker();
    const done = await waitForImport(server, owner.key, id, 180_000);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.equal(done.processed, count + 300);
    assert.equal(done.errorCount, 0);
    assert.deepEqual([done.created, done.updated + done.skipped], [count - 1, 301]);
    const people = await allPeople(server, owner.key);
    assert.equal(people.length, count);
    const emails = people.flatMap((p) => p.emails.map((e: { value: string }) => e.value));
    assert.equal(new Set(emails).size, emails.length, 'no email on two people');
    const phones = people.flatMap((p) => p.phones.map((e: { normalized: string }) => e.normalized));
    assert.equal(new Set(phones).size, count, 'no phone on two people');
    const imported = await server.ctx.db
      .selectFrom('import_people')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('import_id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(imported.n), count - 1);
    workers.killAll('SIGTERM');
  });
});
