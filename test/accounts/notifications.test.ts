import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { type TestServer, startServer, unique } from '../support/server.js';
import { startWorker } from '../../src/worker.js';
import { eventually } from '../support/eventually.js';

const email = () => `${unique('notify')}@example.com`;

describe('agent notifications', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('notifies the assigned agent of new and returning leads; each user sees only their own', async () => {
    const { owner, addUser } = await server.newAccount();
    const other = await server.newAccount();
    const agent = await addUser('Agent');
    await server.post(owner.key, '/v1/leadFlows', {
      source: 'agent.com',
      assignedUserId: agent.id,
    });
    const address = email();
    const lead = await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      source: 'agent.com',
      message: 'Call me',
      person: { firstName: 'Nia', lastName: 'Moss', emails: [address] },
    });
    await server.post(owner.key, '/v1/events', {
      type: 'Viewed Property',
      source: 'agent.com',
      person: { emails: [address] },
    });

    const mine = await server.get(agent.key, '/v1/notifications');
    assert.equal(mine.status, 200);
    assert.equal(mine.body._metadata.collection, 'notifications');
    assert.deepEqual(
      mine.body.notifications.map((n: { type: string }) => n.type),
      ['returningLead', 'newLead'],
    );
    const fresh = mine.body.notifications[1];
    assert.equal(fresh.personId, lead.body.id);
    assert.equal(fresh.title, 'New lead: Nia Moss (Registration from agent.com)');
    assert.equal(fresh.message, 'Call me');
    assert.equal(fresh.read, false);
    assert.equal((await server.get(owner.key, '/v1/notifications')).body._metadata.total, 0);

    assert.equal(
      (await server.put(owner.key, `/v1/notifications/${fresh.id}`, { read: true })).status,
      404,
    );
    assert.equal(
      (await server.put(other.owner.key, `/v1/notifications/${fresh.id}`, { read: true })).status,
      404,
    );
    const read = await server.put(agent.key, `/v1/notifications/${fresh.id}`, { read: 'true' });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.read, true);
    assert.ok(read.body.readAt);
    const unread = await server.get(agent.key, '/v1/notifications?unread=true');
    assert.deepEqual(
      unread.body.notifications.map((n: { id: number }) => n.id),
      [mine.body.notifications[0].id],
    );
    assert.equal(
      (await server.put(agent.key, `/v1/notifications/${fresh.id}`, { read: 'maybe' })).status,
      400,
    );
    const all = await server.post(agent.key, '/v1/notifications/markAllRead', {});
    assert.deepEqual(all.body, { updated: 1 });
    assert.equal(
      (await server.get(agent.key, '/v1/notifications?unread=1')).body._metadata.total,
      0,
    );
    const again = await server.put(agent.key, `/v1/notifications/${fresh.id}`, { read: false });
    assert.equal(again.body.read, false);
  });

  it('without HEARTH_SMTP_URL queues no email', async () => {
    const { accountId, owner } = await server.newAccount();
    await server.post(owner.key, '/v1/events', {
      type: 'Registration',
      person: { emails: [email()] },
    });
    const jobs = await server.ctx.db
      .selectFrom('lead_jobs')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    assert.equal(jobs.length, 0);
  });
});

describe('agent notification emails over SMTP', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let smtp: SMTPServer;
  let server: TestServer;
  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    server = await startServer({
      env: { HEARTH_SMTP_URL: `smtp://127.0.0.1:${port}` },
      worker: true,
    });
  });
  after(async () => {
    await server.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('emails the assigned agent through the configured SMTP server, from the queue', async () => {
    const { accountId, owner, addUser } = await server.newAccount();
    const agent = await addUser('Agent', 'Rita Agent');
    const agentEmail = (await server.get(owner.key, `/v1/users/${agent.id}`)).body.email;
    await server.post(owner.key, '/v1/leadFlows', { source: 'mail.com', assignedUserId: agent.id });
    const lead = await server.post(owner.key, '/v1/events', {
      type: 'Seller Inquiry',
      source: 'mail.com',
      message: 'Selling my flat',
      person: { firstName: 'Sam', lastName: 'Seller', emails: [email()] },
    });
    assert.equal(lead.status, 201);
    const mail = await eventually('the agent email', async () =>
      received.find((m) => m.to.includes(agentEmail)),
    );
    assert.match(mail.data, /Subject: New lead: Sam Seller \(Seller Inquiry from mail\.com\)/);
    assert.match(mail.data, /Selling my flat/);
    assert.match(mail.data, new RegExp(`https://hearth\\.test/v1/people/${lead.body.id}`));
    assert.equal(mail.from, 'notifications@hearth.test');
    const job = await eventually('the job to be marked done', async () =>
      server.ctx.db
        .selectFrom('lead_jobs')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('status', '=', 'done')
        .executeTakeFirst(),
    );
    assert.equal(job.kind, 'notificationEmail');
    assert.equal(job.attempts, 1);
  });
});

describe('agent notification emails: durable queue', () => {
  // Its own SMTP server and no other email worker running, so that on a shared PostgreSQL database
  // nothing but the worker this test starts can pick up the queued email.
  const durableReceived: { to: string[] }[] = [];
  let durableSmtp: SMTPServer;
  before(async () => {
    durableSmtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        stream.on('data', () => {});
        stream.on('end', () => {
          durableReceived.push({ to: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => durableSmtp.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => durableSmtp.close(() => resolve()));
  });

  it('queues the email durably: nothing is sent by the request, a worker started later sends it', async () => {
    const { port } = durableSmtp.server.address() as AddressInfo;
    const apiOnly = await startServer({
      env: { HEARTH_SMTP_URL: `smtp://127.0.0.1:${port}` },
      worker: false,
    });
    try {
      const { accountId, owner } = await apiOnly.newAccount();
      const ownerEmail = (await apiOnly.get(owner.key, `/v1/users/${owner.id}`)).body.email;
      const lead = await apiOnly.post(owner.key, '/v1/events', {
        type: 'Registration',
        person: { firstName: 'Later', emails: [email()] },
      });
      assert.equal(lead.status, 201);
      const pending = await apiOnly.ctx.db
        .selectFrom('lead_jobs')
        .selectAll()
        .where('account_id', '=', accountId)
        .execute();
      assert.deepEqual(
        pending.map((j) => [j.kind, j.status, j.attempts]),
        [['notificationEmail', 'pending', 0]],
      );
      assert.equal(durableReceived.filter((m) => m.to.includes(ownerEmail)).length, 0);
      const worker = startWorker(apiOnly.ctx);
      try {
        await eventually('the queued email', async () =>
          durableReceived.find((m) => m.to.includes(ownerEmail)),
        );
      } finally {
        await worker.stop();
      }
    } finally {
      await apiOnly.close();
    }
  });
});
