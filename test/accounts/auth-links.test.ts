import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';
import { movableClock } from './webhooks/receiver.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { ensureFirstOwner } from '../../src/app/bootstrap.js';
import { asBrowser, givePassword, login, sessionCookieOf, signIn } from '../support/auth.js';

const NEW_PASSWORD = 'velvet-orchard-compass-7';

function choosePassword(server: TestServer, token: string, password = NEW_PASSWORD) {
  return server.call('POST', '/auth/password', { body: { token, password } });
}

function decodeQuotedPrintable(text: string): string {
  if (!/Content-Transfer-Encoding: quoted-printable/i.test(text)) return text;
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The token of the set-password link in a text (an email, the setup-link file). */
function tokenIn(text: string): string {
  const match = /https:\/\/hearth\.test\/set-password\?token=([A-Za-z0-9_%-]+)/.exec(
    decodeQuotedPrintable(text),
  );
  assert.ok(match, `no set-password link in ${text}`);
  return decodeURIComponent(match[1]!);
}

describe('one-time links without SMTP: owner setup, invites', () => {
  let server: TestServer;
  let account: TestAccount;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
  });
  after(async () => server.close());

  it(
    'first start writes a 0600 setup link that sets the owner password once and signs in',
    { skip: process.env.TEST_DATABASE_URL ? 'needs an empty database; run on SQLite' : false },
    async () => {
      const fresh = await startServer();
      try {
        const first = await ensureFirstOwner(fresh.ctx);
        assert.ok(first);
        const file = path.join(fresh.dataDir, 'setup-link');
        assert.equal(statSync(file).mode & 0o777, 0o600);
        assert.equal(readFileSync(file, 'utf8').trim(), first.setupLink);
        const token = tokenIn(first.setupLink);
        const used = await choosePassword(fresh, token);
        assert.equal(used.status, 200, used.text);
        assert.equal(used.body.user.email, 'owner@localhost');
        assert.equal(used.body.user.role, 'Owner');
        assert.equal(used.body.account.name, 'My Team');
        const session = { cookie: sessionCookieOf(used), csrfToken: used.body.csrfToken, body: {} };
        assert.equal((await asBrowser(fresh, session, 'GET', '/v1/me')).status, 200);
        const again = await choosePassword(fresh, token, 'another-fine-passphrase');
        assert.equal(again.status, 400);
        assert.match(again.body.errorMessage, /expired or was already used/);
        assert.equal((await login(fresh, 'owner@localhost', NEW_PASSWORD)).status, 200);
        assert.equal(await ensureFirstOwner(fresh.ctx), null);
      } finally {
        await fresh.close();
      }
    },
  );

  it('an Admin invites: the link is returned once, chooses a password and signs in', async () => {
    const admin = await account.addUser('Admin');
    const email = `${unique('invitee')}@example.com`;
    const res = await server.post(admin.key, '/v1/invites', {
      email,
      name: 'Ivy Invitee',
      role: 'Agent',
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.emailed, false);
    assert.equal(res.body.email, email);
    const token = tokenIn(res.body.inviteLink);
    const list = await server.get(admin.key, '/v1/invites');
    const listed = list.body.invites.find((i: { id: number }) => i.id === res.body.id);
    const { inviteLink: _link, emailed: _emailed, ...shown } = res.body;
    assert.deepEqual(listed, shown);
    assert.equal(shown.role, 'Agent');
    assert.ok(!list.text.includes(token), 'the link is shown once, never listed');

    const weak = await choosePassword(server, token, 'short');
    assert.equal(weak.status, 400);
    assert.match(weak.body.errorMessage, /at least 12 characters/);
    const common = await choosePassword(server, token, 'qwerty123456');
    assert.match(common.body.errorMessage, /too common/);
    const joined = await choosePassword(server, token);
    assert.equal(joined.status, 200, joined.text);
    assert.equal(joined.body.user.role, 'Agent');
    assert.equal(joined.body.user.name, 'Ivy Invitee');
    assert.equal(joined.body.account.id, account.accountId);
    assert.equal((await choosePassword(server, token)).status, 400);
    const users = await server.get(admin.key, `/v1/users?email=${encodeURIComponent(email)}`);
    assert.equal(users.body.users.length, 1);
    assert.equal((await server.get(admin.key, '/v1/invites')).text.includes(email), false);
    await signIn(server, email, NEW_PASSWORD);
  });

  it('invites follow the role rules and can be withdrawn', async () => {
    const admin = await account.addUser('Admin');
    const agent = await account.addUser('Agent');
    const body = { email: `${unique('x')}@example.com`, name: 'X', role: 'Agent' };
    assert.equal((await server.post(agent.key, '/v1/invites', body)).status, 403);
    assert.equal((await server.get(agent.key, '/v1/invites')).status, 403);
    const owner = await server.post(admin.key, '/v1/invites', { ...body, role: 'Owner' });
    assert.equal(owner.status, 403);
    assert.equal(
      (await server.post(account.owner.key, '/v1/invites', { ...body, role: 'Owner' })).status,
      201,
    );
    const bad = await server.post(admin.key, '/v1/invites', { ...body, email: 'not-an-email' });
    assert.equal(bad.status, 400);
    const agentEmail = (await server.get(agent.key, '/v1/me')).body.email;
    const existing = await server.post(admin.key, '/v1/invites', { ...body, email: agentEmail });
    assert.equal(existing.status, 409);

    const invite = await server.post(admin.key, '/v1/invites', body);
    const withdrawn = await server.del(admin.key, `/v1/invites/${invite.body.id}`);
    assert.equal(withdrawn.status, 204);
    assert.equal((await choosePassword(server, tokenIn(invite.body.inviteLink))).status, 400);
    assert.equal((await server.del(admin.key, `/v1/invites/${invite.body.id}`)).status, 404);
    const other = await server.newAccount();
    const foreign = await server.post(other.owner.key, '/v1/invites', {
      ...body,
      email: `${unique('y')}@example.com`,
    });
    assert.equal((await server.del(admin.key, `/v1/invites/${foreign.body.id}`)).status, 404);
  });

  it('refuses made-up tokens with 400', async () => {
    for (const token of ['nonsense', 'hpw_' + 'A'.repeat(43), 'hinv_' + 'B'.repeat(43)]) {
      const res = await choosePassword(server, token);
      assert.equal(res.status, 400, res.text);
    }
  });

  it('POST /auth/forgot answers 202 and sends nothing without SMTP', async () => {
    const res = await server.call('POST', '/auth/forgot', { body: { email: 'a@example.com' } });
    assert.equal(res.status, 202);
    // The sign-in page then says to ask an Owner instead of promising an email.
    assert.deepEqual(res.body, { emailsLinks: false });
  });
});

describe('one-time links by email (HEARTH_SMTP_URL)', () => {
  let server: TestServer;
  let account: TestAccount;
  let sink: SmtpSink;
  const clock = movableClock();
  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({ env: { HEARTH_SMTP_URL: sink.url }, clock });
    account = await server.newAccount();
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  const mailTo = async (address: string, count = 1) => {
    for (let i = 0; i < 100 && sink.countFor(address) < count; i++)
      await new Promise((r) => setTimeout(r, 50));
    const messages = sink.messages.filter((m) => m.to === address.toLowerCase());
    assert.equal(messages.length, count, `messages to ${address}`);
    return messages.at(-1)!.data;
  };

  it('emails the invite link instead of returning it', async () => {
    const email = `${unique('mailed')}@example.com`;
    const res = await server.post(account.owner.key, '/v1/invites', {
      email,
      name: 'Mae Mailed',
      role: 'Lender',
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.emailed, true);
    assert.equal(res.body.inviteLink, undefined);
    const joined = await choosePassword(server, tokenIn(await mailTo(email)));
    assert.equal(joined.status, 200, joined.text);
    assert.equal(joined.body.user.role, 'Lender');
  });

  it('a reset link sets a new password once, ends the old sessions, and expires after an hour', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const before = await signIn(server, email);
    const unknown = `${unique('nobody')}@example.com`;
    for (const address of [email, unknown]) {
      const res = await server.call('POST', '/auth/forgot', { body: { email: address } });
      assert.equal(res.status, 202);
      assert.deepEqual(res.body, { emailsLinks: true });
    }
    const token = tokenIn(await mailTo(email));
    assert.equal(sink.countFor(unknown), 0);
    const reset = await choosePassword(server, token);
    assert.equal(reset.status, 200, reset.text);
    assert.equal((await asBrowser(server, before, 'GET', '/v1/me')).status, 401);
    assert.equal((await choosePassword(server, token)).status, 400);
    assert.equal((await login(server, email, NEW_PASSWORD)).status, 200);

    // A second request within 5 minutes sends nothing more; later, a fresh link that expires.
    await server.call('POST', '/auth/forgot', { body: { email } });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(sink.countFor(email), 1);
    clock.advance(6 * 60_000);
    await server.call('POST', '/auth/forgot', { body: { email } });
    const late = tokenIn(await mailTo(email, 2));
    clock.advance(3600_000 + 1000);
    assert.equal((await choosePassword(server, late)).status, 400);
  });
});
