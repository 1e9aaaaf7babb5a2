import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TestServer, startServer, unique } from '../support/server.js';
import { eventually } from '../support/eventually.js';
import { type Dovecot, dovecotMissing, startDovecot } from './dovecot.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { fixture } from '../leads/inbound-helpers.js';
import {
  MAILBOX_ENV,
  appendMail,
  countMail,
  mailboxBody,
  mailboxStatus,
  rawMessage,
  timeline,
} from './mailbox-helpers.js';

const skip = dovecotMissing();
const DAY = 86_400_000;

describe('connected mailboxes over a real IMAP server', { skip: skip ?? false }, () => {
  let dovecot: Dovecot;
  let sink: SmtpSink;
  let api: TestServer;
  // One file for every server of the suite (a restart reopens it); each server's data dir goes.
  const dbDir = mkdtempSync(path.join(tmpdir(), 'hearth-mailboxes-'));
  const env = {
    ...MAILBOX_ENV,
    DATABASE_URL: process.env.TEST_DATABASE_URL || `sqlite:${path.join(dbDir, 'hearth.db')}`,
  };

  before(async () => {
    [dovecot, sink] = await Promise.all([startDovecot(), startSmtpSink()]);
    api = await startServer({ worker: true, env });
  });
  after(async () => {
    await api?.close();
    await Promise.all([dovecot?.stop(), sink?.close()]);
    rmSync(dbDir, { recursive: true, force: true });
  });

  /** An account with an agent whose mailbox is a fresh dovecot user, a customer and a colleague's customer. */
  async function team() {
    const account = await api.newAccount();
    const agent = await account.addUser('Agent');
    const colleague = await account.addUser('Agent');
    const address = `${unique('agent')}@mail.test`.toLowerCase();
    const password = unique('pw');
    await dovecot.addUser(address, password);
    const alice = await api.newPerson(account.owner.key, { assignedUserId: agent.id });
    const bob = await api.newPerson(account.owner.key, { assignedUserId: colleague.id });
    const colleagueEmail = (await api.get(colleague.key, '/v1/identity')).body.user.email as string;
    // A colleague who is also in the CRM as a person: mail between colleagues stays out.
    const carol = await api.newPerson(account.owner.key, {
      emails: [{ value: colleagueEmail }],
      assignedUserId: agent.id,
    });
    return { account, agent, colleague, address, password, alice, bob, carol, colleagueEmail };
  }

  it('files history, keeps out what it must, threads, parses old leads, and follows new mail', async () => {
    const t = await team();
    const now = Date.now();
    const first = `<${unique('first')}@customer.test>`;
    const both = `<${unique('both')}@mail.test>`;
    await appendMail(dovecot, t.address, t.password, 'INBOX', [
      rawMessage({
        from: `Alice <${t.alice.email}>`,
        to: t.address,
        subject: 'Viewing on Saturday?',
        body: 'Can we see the house on Saturday?',
        html: '<p>Can we see the <b>house</b>?</p><script>alert(1)</script><img src="https://tracker.test/p.gif">',
        messageId: first,
        date: new Date(now - 3 * DAY),
      }),
      rawMessage({
        from: t.bob.email,
        to: t.address,
        subject: "Bob's question",
        messageId: `<${unique('b')}@x.test>`,
      }),
      rawMessage({
        from: t.colleagueEmail,
        to: t.address,
        subject: 'Internal',
        messageId: `<${unique('c')}@x.test>`,
      }),
      rawMessage({
        from: t.alice.email,
        to: t.address,
        subject: 'Newsletter',
        messageId: `<${unique('n')}@x.test>`,
        headers: { 'List-Unsubscribe': '<mailto:unsubscribe@x.test>' },
      }),
      rawMessage({
        from: t.address,
        to: t.alice.email,
        cc: [t.address],
        subject: 'Copy to myself',
        messageId: both,
      }),
      fixture('zillow.eml'),
      Buffer.from(
        'From: broken\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nno end',
      ),
    ]);
    // Outside the window of HEARTH_MAILBOX_SYNC_DAYS (90): never read.
    const old = new Date(now - 200 * DAY);
    const oldClient = rawMessage({
      from: t.alice.email,
      to: t.address,
      subject: 'Long ago',
      messageId: `<${unique('o')}@x.test>`,
      date: old,
    });
    await appendOld(t.address, t.password, oldClient, old);
    await appendMail(dovecot, t.address, t.password, 'Sent', [
      rawMessage({
        from: t.address,
        to: t.alice.email,
        subject: 'Re: Viewing on Saturday?',
        body: 'Saturday at 10 works.',
        messageId: `<${unique('reply')}@mail.test>`,
        references: [first],
        date: new Date(now - 2 * DAY),
      }),
      rawMessage({
        from: t.address,
        to: t.alice.email,
        cc: [t.address],
        subject: 'Copy to myself',
        messageId: both,
      }),
    ]);

    const res = await api.post(
      t.agent.key,
      '/v1/mailboxes',
      mailboxBody(dovecot, t.address, t.password, sink.url),
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.address, t.address);
    assert.ok(['connecting', 'syncing', 'ok'].includes(res.body.status), res.text);
    assert.doesNotMatch(res.text, new RegExp(t.password));
    const synced = await mailboxStatus(api, t.agent.key, res.body.id, ['ok', 'error']);
    assert.equal(synced.status, 'ok', synced.error);
    assert.ok(synced.lastSyncAt);

    const emails = await timeline(api, t.agent.key, t.alice.id);
    assert.deepEqual(emails.map((e) => e.subject).sort(), [
      'Copy to myself',
      'Re: Viewing on Saturday?',
      'Viewing on Saturday?',
    ]);
    const incoming = emails.find((e) => e.messageId === first)!;
    assert.equal(incoming.isIncoming, true);
    assert.equal(incoming.userId, t.agent.id);
    assert.equal(incoming.from, t.alice.email);
    assert.deepEqual(incoming.to, [t.address]);
    assert.match(incoming.body, /see the house on Saturday/);
    assert.match(incoming.htmlBody!, /<b>house<\/b>/);
    assert.doesNotMatch(incoming.htmlBody!, /script|img|tracker/);
    const reply = emails.find((e) => e.subject.startsWith('Re:'))!;
    assert.equal(reply.isIncoming, false);
    assert.equal(reply.threadId, first, 'the reply is in the first message’s conversation');
    assert.equal(emails.find((e) => e.messageId === both)!.isIncoming, false);

    assert.equal((await timeline(api, t.agent.key, t.carol.id)).length, 0);
    // Bob is the colleague's customer: nothing for him from this mailbox.
    assert.equal((await timeline(api, t.account.owner.key, t.bob.id)).length, 0);
    // The old lead email became a person of the agent's, as history.
    const lead = await eventually('lead person', async () => {
      const people = await api.get(t.account.owner.key, '/v1/people?q=Jordan');
      return people.body.people[0];
    });
    assert.equal(lead.createdVia, 'Historic Email Parsing');
    assert.equal(lead.assignedUserId, t.agent.id);

    // New mail while connected is filed within the poll period (1 s here).
    const later = `<${unique('later')}@customer.test>`;
    await appendMail(dovecot, t.address, t.password, 'INBOX', [
      rawMessage({
        from: t.alice.email,
        to: t.address,
        subject: 'Re: Re: Viewing',
        messageId: later,
        references: [first],
      }),
    ]);
    const filed = await eventually('new mail filed', async () =>
      (await timeline(api, t.agent.key, t.alice.id)).find((e) => e.messageId === later),
    );
    assert.equal(filed.threadId, first);
    assert.equal((await timeline(api, t.agent.key, t.alice.id)).length, 4);
  });

  /** APPEND with an internal date in the past (SEARCH SINCE reads the internal date). */
  async function appendOld(user: string, password: string, raw: string, date: Date) {
    const { ImapFlow } = await import('imapflow');
    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user, pass: password },
      logger: false,
    });
    await client.connect();
    await client.append('INBOX', raw, [], date);
    await client.logout();
  }

  it('sends from the mailbox: SMTP, the Sent folder, once on the timeline, threaded', async () => {
    const t = await team();
    const first = `<${unique('q')}@customer.test>`;
    await appendMail(dovecot, t.address, t.password, 'INBOX', [
      rawMessage({ from: t.alice.email, to: t.address, subject: 'Question', messageId: first }),
    ]);
    const box = await api.post(
      t.agent.key,
      '/v1/mailboxes',
      mailboxBody(dovecot, t.address, t.password, sink.url),
    );
    assert.equal(box.status, 201, box.text);
    await mailboxStatus(api, t.agent.key, box.body.id, ['ok']);
    const question = (await timeline(api, t.agent.key, t.alice.id))[0];

    const before = sink.messages.length;
    const sent = await api.post(t.agent.key, `/v1/mailboxes/${box.body.id}/send`, {
      personId: t.alice.id,
      subject: 'Re: Question',
      body: 'Here is the answer.',
      cc: ['partner@other.test'],
      inReplyToEmailId: question.id,
    });
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.body.isIncoming, false);
    assert.equal(sent.body.threadId, first);
    assert.deepEqual(sent.body.cc, ['partner@other.test']);
    const delivered = sink.messages
      .slice(before)
      .find((m) => m.data.includes('Here is the answer.'))!;
    assert.ok(delivered, 'the SMTP server got the message');
    assert.match(delivered.to, new RegExp(t.alice.email.replace(/[.]/g, '\\.')));
    assert.match(delivered.data, new RegExp(`In-Reply-To: ${first}`));
    assert.equal(await countMail(dovecot, t.address, t.password, 'Sent'), 1);

    // The sync then sees it in Sent and files nothing more.
    const lastSync = (await api.get(t.agent.key, `/v1/mailboxes/${box.body.id}`)).body.lastSyncAt;
    await eventually('a sync after the send', async () => {
      const now = await api.get(t.agent.key, `/v1/mailboxes/${box.body.id}`);
      return now.body.lastSyncAt > lastSync;
    });
    const emails = await timeline(api, t.agent.key, t.alice.id);
    assert.equal(emails.filter((e) => e.messageId === sent.body.messageId).length, 1);

    // Another agent cannot send from it; a person the agent cannot see gets nothing.
    assert.equal(
      (
        await api.post(t.colleague.key, `/v1/mailboxes/${box.body.id}/send`, {
          personId: t.alice.id,
          subject: 'x',
          body: 'y',
        })
      ).status,
      404,
    );
    const hidden = await api.post(t.agent.key, `/v1/mailboxes/${box.body.id}/send`, {
      personId: t.bob.id,
      subject: 'x',
      body: 'y',
    });
    assert.equal(hidden.status, 404, hidden.text);
  });

  it('resumes after a restart without filing anything twice', async () => {
    const t = await team();
    await appendMail(dovecot, t.address, t.password, 'INBOX', [
      rawMessage({
        from: t.alice.email,
        to: t.address,
        subject: 'One',
        messageId: `<${unique('r1')}@c.test>`,
      }),
    ]);
    const box = await api.post(
      t.agent.key,
      '/v1/mailboxes',
      mailboxBody(dovecot, t.address, t.password, sink.url),
    );
    await mailboxStatus(api, t.agent.key, box.body.id, ['ok']);
    await api.close();
    await appendMail(dovecot, t.address, t.password, 'INBOX', [
      rawMessage({
        from: t.alice.email,
        to: t.address,
        subject: 'Two',
        messageId: `<${unique('r2')}@c.test>`,
      }),
    ]);
    api = await startServer({ worker: true, env });
    await eventually(
      'mail of the downtime filed',
      async () => (await timeline(api, t.agent.key, t.alice.id)).length === 2,
    );
    const lastSync = (await api.get(t.agent.key, `/v1/mailboxes/${box.body.id}`)).body.lastSyncAt;
    await eventually(
      'another pass',
      async () =>
        (await api.get(t.agent.key, `/v1/mailboxes/${box.body.id}`)).body.lastSyncAt > lastSync,
    );
    assert.deepEqual((await timeline(api, t.agent.key, t.alice.id)).map((e) => e.subject).sort(), [
      'One',
      'Two',
    ]);
  });

  it('says what is wrong with bad credentials, shows no password, and disconnects keeping what was filed', async () => {
    const t = await team();
    const bad = await api.post(
      t.agent.key,
      '/v1/mailboxes',
      mailboxBody(dovecot, t.address, 'wrong-password', sink.url),
    );
    assert.equal(bad.status, 201, bad.text);
    assert.equal(bad.body.status, 'error');
    assert.match(bad.body.error, /refused the username or password/);

    await appendMail(dovecot, t.address, t.password, 'INBOX', [
      rawMessage({
        from: t.alice.email,
        to: t.address,
        subject: 'Kept',
        messageId: `<${unique('k')}@c.test>`,
      }),
    ]);
    assert.equal((await api.del(t.agent.key, `/v1/mailboxes/${bad.body.id}`)).status, 204);
    const good = await api.post(
      t.agent.key,
      '/v1/mailboxes',
      mailboxBody(dovecot, t.address, t.password, sink.url),
    );
    assert.equal(good.status, 201);
    await mailboxStatus(api, t.agent.key, good.body.id, ['ok']);

    // The owner sees which mailboxes are connected; a colleague does not; nobody sees a password.
    const listed = await api.get(t.account.owner.key, '/v1/mailboxes');
    assert.deepEqual(
      listed.body.mailboxes.map((m: { id: number }) => m.id),
      [good.body.id],
    );
    assert.doesNotMatch(listed.text, new RegExp(t.password));
    assert.equal((await api.get(t.colleague.key, `/v1/mailboxes/${good.body.id}`)).status, 404);
    assert.deepEqual((await api.get(t.colleague.key, '/v1/mailboxes')).body.mailboxes, []);

    assert.equal((await api.del(t.agent.key, `/v1/mailboxes/${good.body.id}`)).status, 204);
    assert.equal((await api.get(t.agent.key, `/v1/mailboxes/${good.body.id}`)).status, 404);
    assert.equal((await timeline(api, t.agent.key, t.alice.id)).length, 1);
    // Deleting the person deletes their emails.
    const email = (await timeline(api, t.agent.key, t.alice.id))[0];
    assert.equal((await api.del(t.account.owner.key, `/v1/people/${t.alice.id}`)).status, 204);
    assert.equal((await api.get(t.account.owner.key, `/v1/emails/${email.id}`)).status, 404);
  });

  it('refuses bad input with a 4xx', async () => {
    const t = await team();
    const body = mailboxBody(dovecot, t.address, t.password, sink.url);
    const noAddress = await api.post(t.agent.key, '/v1/mailboxes', {
      ...body,
      address: 'not-an-address',
    });
    assert.equal(noAddress.status, 400);
    assert.match(noAddress.body.errorMessage, /not an email address/);
    const badPort = await api.post(t.agent.key, '/v1/mailboxes', {
      ...body,
      imap: { ...body.imap, port: 70000 },
    });
    assert.equal(badPort.status, 400);
    const refused = await api.post(t.agent.key, '/v1/mailboxes', {
      ...body,
      imap: { ...body.imap, port: 1 },
    });
    assert.equal(refused.status, 201);
    assert.equal(refused.body.status, 'error');
    assert.match(refused.body.error, /refused the connection/);
  });
});

describe('connected mailboxes: mail servers on private addresses', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('are refused unless HEARTH_MAILBOX_ALLOW_PRIVATE is set', async () => {
    const { owner } = await server.newAccount();
    const server1 = { host: '127.0.0.1', port: 993, username: 'u', password: 'p' };
    for (const host of ['127.0.0.1', 'localhost', '10.1.2.3', '169.254.169.254']) {
      const res = await server.post(owner.key, '/v1/mailboxes', {
        address: 'me@example.com',
        imap: { ...server1, host },
        smtp: { ...server1, port: 465 },
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.status, 'error');
      assert.match(res.body.error, /loopback|private/);
      assert.equal((await server.del(owner.key, `/v1/mailboxes/${res.body.id}`)).status, 204);
    }
  });
});
