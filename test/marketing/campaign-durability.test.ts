import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { type TestServer, PUBLIC_URL, startServer, unique } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { ROOT, entryPoint, exitOf, waitFor } from '../support/process.js';
import { applyPersonInput } from '../../src/contacts/people/people.input.js';
import { createPerson } from '../../src/contacts/people/people.service.js';
import { emptyPersonState } from '../../src/contacts/people/people.state.js';
import { isoSeconds } from '../../src/platform/time.js';

const SECRET = 'campaign-durability-secret-0123456789';

/**
 * Many recipients at once (the API creates people one by one; the test needs thousands), in
 * transactions of 1,000 of which several run at once: on PostgreSQL each statement is a round trip,
 * and one transaction at a time left the database and this process waiting on each other (10,000
 * people took 2.4 times as long as five transactions at a time).
 */
async function seedPeople(server: TestServer, accountId: number, count: number, tag: string) {
  const emails = Array.from({ length: count }, (_, i) => `${tag}-${i}@example.com`.toLowerCase());
  const at = isoSeconds(Date.now());
  const starts = Array.from({ length: Math.ceil(count / 1000) }, (_, i) => i * 1000);
  const seedBatches = async () => {
    for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
      await server.ctx.db.transaction().execute(async (trx) => {
        for (let i = start; i < Math.min(count, start + 1000); i++) {
          const state = await applyPersonInput(trx, accountId, emptyPersonState(), {
            firstName: `P${i}`,
            emails: [{ value: emails[i] }],
            tags: [tag],
          });
          await createPerson(trx, accountId, state, { createdVia: 'API', at });
        }
      });
    }
  };
  await Promise.all(Array.from({ length: 5 }, seedBatches));
  return emails;
}

/**
 * Recipients of each send. 1,000 by default (several batches before and after the kill: the
 * property does not change with size, and 10,000 took 7 to 16 minutes of CI's 30); CI's second run,
 * on PostgreSQL, sends fewer; HEARTH_TEST_SEND_SIZE=10000 runs it at the size of
 * `npm run bench -- email`.
 */
const SEND_SIZE = Number(process.env.HEARTH_TEST_SEND_SIZE ?? 1000);
/** Messages a worker has under way at once (two per SMTP connection, 5 connections by default). */
const IN_FLIGHT = 10;
/** What a recipient left `handing` by a killed worker is recorded with (campaignEmail.job.ts). */
const HANDOVER_NOTE = 'the worker stopped after handing the message to the SMTP server';

describe('campaign sending survives kill -9 and shares work between workers', () => {
  let sink: SmtpSink;
  let server: TestServer;
  const children: ChildProcess[] = [];
  before(async () => {
    sink = await startSmtpSink({ keepData: false });
    // API only: the messages come from the worker processes this test starts and kills.
    server = await startServer({
      env: {
        HEARTH_SMTP_URL: sink.url,
        HEARTH_SECRET: SECRET,
        HEARTH_EMAIL_FROM: 'news@hearth.test',
      },
    });
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await server?.close();
    await sink?.close();
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
        HEARTH_SMTP_URL: sink.url,
        HEARTH_EMAIL_FROM: 'news@hearth.test',
        HEARTH_LOG_LEVEL: 'warn',
        PORT: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    return child;
  }

  async function startSend(count: number) {
    const { accountId, owner } = await server.newAccount();
    const tag = unique('bulk');
    const emails = await seedPeople(server, accountId, count, tag);
    const campaign = await server.post(owner.key, '/v1/emCampaigns', {
      origin: 'Hearth',
      originId: unique('c'),
      name: 'Bulk',
      subject: 'Hello %contact_first_name%',
      bodyHtml: '<p>Hi %contact_first_name%, <a href="https://example.com/x">look</a></p>',
    });
    const list = await server.post(owner.key, '/v1/smartLists', {
      name: 'Bulk',
      filters: { tags: tag },
    });
    const send = await server.post(owner.key, `/v1/emCampaigns/${campaign.body.id}/send`, {
      smartListId: list.body.id,
    });
    assert.equal(send.status, 202, send.text);
    assert.equal(send.body.total, count);
    const progress = async () =>
      (await server.get(owner.key, `/v1/emCampaigns/${campaign.body.id}`)).body.lastSend;
    return { emails, progress };
  }

  /** Each recipient got exactly one message, and nothing else went to them (other sends may run). */
  function assertEachOnce(emails: string[]) {
    const ours = new Set(emails);
    assert.equal(sink.messages.filter((m) => ours.has(m.to)).length, emails.length);
    const wrong = emails.filter((e) => sink.countFor(e) !== 1);
    assert.equal(
      wrong.length,
      0,
      `${wrong.length} recipients did not get exactly one message, e.g. ${wrong
        .slice(0, 5)
        .map((e) => `${e}: ${sink.countFor(e)}`)
        .join(', ')}`,
    );
  }

  /**
   * Across a kill -9, each recipient gets one message except one whose worker died in the instant
   * between committing its handover and writing the final dot (docs/email.md): that one is recorded
   * as sent with the handover note, and only messages in flight at the kill can be such. No
   * recipient ever gets two.
   */
  async function assertEachOnceAcrossKill(emails: string[]) {
    const twice = emails.filter((e) => sink.countFor(e) > 1);
    assert.deepEqual(twice, [], 'no recipient gets two messages');
    const lost = emails.filter((e) => sink.countFor(e) === 0);
    assert.ok(lost.length <= IN_FLIGHT, `${lost.length} messages lost: more than were in flight`);
    if (lost.length === 0) return;
    const rows = await server.ctx.db
      .selectFrom('em_send_recipients')
      .select(['email', 'status', 'last_error'])
      .where('email', 'in', lost)
      .execute();
    for (const email of lost) {
      const row = rows.find((r) => r.email === email);
      assert.equal(row?.status, 'sent', `${email}: ${JSON.stringify(row)}`);
      assert.equal(row?.last_error, HANDOVER_NOTE, `${email} was lost outside a handover`);
    }
  }

  it(`sends each of ${SEND_SIZE} recipients one message across a kill -9 and a restart`, async () => {
    const { emails, progress } = await startSend(SEND_SIZE);
    const before = sink.messages.length;
    const first = spawnWorker();
    // Generous bounds: under the whole suite on two shared cores a worker may send only ~30/s.
    await waitFor(() => sink.messages.length - before >= SEND_SIZE / 5, 300_000);
    first.kill('SIGKILL');
    await exitOf(first);
    const atKill = sink.messages.length - before;
    assert.ok(atKill < emails.length, `the kill came before the end (${atKill} sent)`);

    const second = spawnWorker();
    await waitFor(async () => (await progress())?.status === 'done', 600_000);
    second.kill('SIGTERM');
    await exitOf(second);
    await assertEachOnceAcrossKill(emails);
    const done = await progress();
    assert.equal(done.sent, emails.length);
    assert.equal(done.pending, 0);
  });

  it(
    'two workers on PostgreSQL send each recipient once',
    { skip: process.env.TEST_DATABASE_URL ? false : 'needs PostgreSQL: set TEST_DATABASE_URL' },
    async () => {
      const { emails, progress } = await startSend(SEND_SIZE);
      const workers = [spawnWorker(), spawnWorker()];
      await waitFor(async () => (await progress())?.status === 'done', 180_000);
      for (const worker of workers) worker.kill('SIGTERM');
      await Promise.all(workers.map(exitOf));
      assertEachOnce(emails);
    },
  );
});
