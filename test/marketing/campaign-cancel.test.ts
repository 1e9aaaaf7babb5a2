import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { type TestServer, PUBLIC_URL, startServer, unique } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { ROOT, entryPoint, exitOf, waitFor } from '../support/process.js';

const RATE = '10'; // messages per second per worker: slow enough to cancel in the middle

async function makeCampaign(server: TestServer, key: string) {
  const res = await server.post(key, '/v1/emCampaigns', {
    origin: 'Hearth',
    originId: unique('c'),
    name: 'News',
    subject: 'Hello %contact_first_name%',
    bodyHtml: '<p>Hi %contact_first_name%</p>',
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id as number;
}

async function makePeople(server: TestServer, key: string, count: number) {
  const people: { id: number; email: string }[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - start) }, async () => {
        const email = `${unique('r')}@example.com`.toLowerCase();
        const res = await server.post(key, '/v1/people', {
          firstName: 'Ann',
          emails: [{ value: email }],
        });
        assert.equal(res.status, 201, res.text);
        return { id: res.body.id as number, email };
      }),
    );
    people.push(...batch);
  }
  return people;
}

const inAMinute = () => new Date(Date.now() + 60_000).toISOString();

describe('campaign sends: closing empty sends and cancelling', () => {
  let sink: SmtpSink;
  let server: TestServer;
  const children: ChildProcess[] = [];
  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: {
        HEARTH_SMTP_URL: sink.url,
        HEARTH_EMAIL_FROM: 'news@hearth.test',
        HEARTH_EMAIL_RATE: RATE,
      },
      worker: true,
    });
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await server?.close();
    await sink?.close();
  });

  const lastSend = async (key: string, campaignId: number) =>
    (await server.get(key, `/v1/emCampaigns/${campaignId}`)).body.lastSend;

  it('closes a send whose recipients were all deleted, and the campaign can be sent again', async () => {
    const { owner } = await server.newAccount();
    const [a, b, c] = await makePeople(server, owner.key, 3);

    // The worker finds the send with nobody left to work on and closes it.
    const swept = await makeCampaign(server, owner.key);
    const first = await server.post(owner.key, `/v1/emCampaigns/${swept}/send`, {
      personIds: [a.id],
      sendAt: inAMinute(),
    });
    assert.equal(first.status, 202, first.text);
    assert.equal((await server.del(owner.key, `/v1/people/${a.id}`)).status, 204);
    await waitFor(async () => (await lastSend(owner.key, swept))?.status === 'done', 20_000);
    const closed = await lastSend(owner.key, swept);
    assert.equal(closed.pending, 0);
    assert.ok(closed.finished, 'the send has a finish time');

    // Sending again right away is not refused by the empty send.
    const other = await makeCampaign(server, owner.key);
    const scheduled = await server.post(owner.key, `/v1/emCampaigns/${other}/send`, {
      personIds: [b.id],
      sendAt: inAMinute(),
    });
    assert.equal(scheduled.status, 202, scheduled.text);
    assert.equal((await server.del(owner.key, `/v1/people/${b.id}`)).status, 204);
    const again = await server.post(owner.key, `/v1/emCampaigns/${other}/send`, {
      personIds: [c.id],
    });
    assert.equal(again.status, 202, again.text);
    await waitFor(async () => (await lastSend(owner.key, other))?.status === 'done', 30_000);
    assert.equal(sink.countFor(c.email), 1);
  });

  it('cancels a scheduled send: nobody gets it, each recipient says why, and it can be sent again', async () => {
    const { owner, addUser } = await server.newAccount();
    const people = await makePeople(server, owner.key, 3);
    const campaignId = await makeCampaign(server, owner.key);
    const cancel = (id: number, key = owner.key) =>
      server.post(key, `/v1/emCampaigns/${id}/send/cancel`);

    const unknown = await cancel(999_999_999);
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.errorMessage, /Campaign 999999999 not found/);
    const idle = await cancel(campaignId);
    assert.equal(idle.status, 409);
    assert.match(idle.body.errorMessage, /nothing to cancel/);

    const res = await server.post(owner.key, `/v1/emCampaigns/${campaignId}/send`, {
      personIds: people.map((p) => p.id),
      sendAt: inAMinute(),
    });
    assert.equal(res.status, 202, res.text);
    const lender = await addUser('Lender');
    assert.equal((await cancel(campaignId, lender.key)).status, 403);

    const cancelled = await cancel(campaignId);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(cancelled.body.cancelled, 3);
    assert.equal(cancelled.body.pending, 0);
    assert.equal(cancelled.body.cancelledBy, owner.name);
    assert.ok(cancelled.body.cancelledAt);
    assert.equal((await lastSend(owner.key, campaignId)).status, 'cancelled');
    assert.equal((await cancel(campaignId)).status, 409);
    const history = await server.get(owner.key, `/v1/people/${people[0].id}/campaignEmails`);
    assert.equal(history.body.campaignEmails[0].status, 'cancelled');
    assert.match(history.body.campaignEmails[0].reason, /cancelled by/);

    const again = await server.post(owner.key, `/v1/emCampaigns/${campaignId}/send`, {
      personIds: [people[0].id],
    });
    assert.equal(again.status, 202, again.text);
    await waitFor(async () => (await lastSend(owner.key, campaignId))?.status === 'done', 30_000);
    assert.deepEqual(
      people.map((p) => sink.countFor(p.email)),
      [1, 0, 0],
    );
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
        HEARTH_SMTP_URL: sink.url,
        HEARTH_EMAIL_FROM: 'news@hearth.test',
        HEARTH_EMAIL_RATE: RATE,
        HEARTH_LOG_LEVEL: 'warn',
        PORT: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    return child;
  }

  it('cancels in the middle of a send (three workers on PostgreSQL): the rest is never sent, nothing twice or half', async () => {
    const { owner } = await server.newAccount();
    const people = await makePeople(server, owner.key, 150);
    const emails = new Set(people.map((p) => p.email));
    const ours = () => sink.messages.filter((m) => emails.has(m.to)).length;
    const workers = process.env.TEST_DATABASE_URL ? [spawnWorker(), spawnWorker()] : [];
    const campaignId = await makeCampaign(server, owner.key);
    const res = await server.post(owner.key, `/v1/emCampaigns/${campaignId}/send`, {
      personIds: people.map((p) => p.id),
    });
    assert.equal(res.status, 202, res.text);
    await waitFor(() => ours() >= 10, 60_000);
    const cancelled = await server.post(owner.key, `/v1/emCampaigns/${campaignId}/send/cancel`);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.ok(cancelled.body.cancelled > 0, 'some recipients were not reached yet');

    // Messages already being handed over finish; then the send is over and nothing more goes out.
    await waitFor(async () => (await lastSend(owner.key, campaignId)).pending === 0, 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    const done = await lastSend(owner.key, campaignId);
    assert.equal(done.status, 'cancelled');
    assert.ok(done.finished, 'the cancelled send is finished');
    assert.equal(done.sent + done.cancelled, people.length);
    assert.ok(done.sent < people.length, `the cancel came before the end (${done.sent} sent)`);
    assert.equal(ours(), done.sent, 'every message the server took is counted as sent, no other');
    assert.ok(
      people.every((p) => sink.countFor(p.email) <= 1),
      'nobody got a message twice',
    );
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map(exitOf));
  });
});
