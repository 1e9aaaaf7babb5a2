import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';
import { movableClock } from './webhooks/receiver.js';
import { runAdmin } from '../support/process.js';
import { purgeAuthLeftovers } from '../../src/accounts/auth/auth.job.js';
import {
  asBrowser,
  givePassword,
  GOOD_PASSWORD,
  login,
  sessionCookieOf,
  signIn,
} from '../support/auth.js';

describe('browser sessions: sign-in, cookie auth on /v1, CSRF, sign-out, expiry', () => {
  let server: TestServer;
  let account: TestAccount;
  const clock = movableClock();

  before(async () => {
    server = await startServer({ clock });
    account = await server.newAccount();
  });
  after(async () => server.close());

  it('signs in with email and password: the contract answer and a hardened cookie', async () => {
    const agent = await account.addUser('Agent', 'Sam Session');
    const { email } = await givePassword(server, agent);
    const res = await login(server, email.toUpperCase(), GOOD_PASSWORD);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.user, { id: agent.id, name: 'Sam Session', email, role: 'Agent' });
    assert.equal(res.body.account.id, account.accountId);
    assert.match(res.body.csrfToken, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(res.headers['cache-control'], 'no-store');
    const setCookie = String(res.headers['set-cookie']);
    assert.match(setCookie, /^hearth_session=[A-Za-z0-9_-]{43}; Path=\//);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Max-Age=1209600'])
      assert.ok(setCookie.includes(attribute), `${attribute} missing in ${setCookie}`);
    const sessionId = sessionCookieOf(res).split('=')[1]!;
    // Only a hash of the id is stored, and the CSRF token is not the id.
    assert.notEqual(res.body.csrfToken, sessionId);
    const rows = await server.ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', agent.id)
      .execute();
    assert.equal(rows.length, 1);
    assert.ok(!JSON.stringify(rows).includes(sessionId));
    const stored = await server.ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', agent.id)
      .executeTakeFirstOrThrow();
    assert.match(stored.password_hash!, /^scrypt\$32768\$8\$1\$/);
    assert.ok(!stored.password_hash!.includes(GOOD_PASSWORD));
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const wrong = await login(server, email, 'not-the-right-password');
    const unknown = await login(server, `${unique('nobody')}@example.com`, GOOD_PASSWORD);
    for (const res of [wrong, unknown]) {
      assert.equal(res.status, 401, res.text);
      assert.equal(res.body.errorMessage, 'Wrong email or password');
      assert.equal(res.body.errorCode, 'WRONG_CREDENTIALS');
      assert.equal(res.headers['set-cookie'], undefined);
      assert.equal(res.headers['www-authenticate'], undefined);
    }
    const noPassword = await account.addUser('Agent');
    const me = await server.get(noPassword.key, '/v1/me');
    assert.equal((await login(server, me.body.email, GOOD_PASSWORD)).status, 401);
    assert.equal((await login(server, email, '')).status, 400);
  });

  it('GET /auth/session answers who is signed in, or 401 without a session', async () => {
    const admin = await account.addUser('Admin');
    const { email } = await givePassword(server, admin);
    const session = await signIn(server, email);
    const res = await asBrowser(server, session, 'GET', '/auth/session');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, session.body);
    const none = await server.call('GET', '/auth/session');
    assert.equal(none.status, 401);
    assert.equal(none.headers['www-authenticate'], undefined);
    const forged = await server.call('GET', '/auth/session', {
      headers: { cookie: `hearth_session=${'A'.repeat(43)}` },
    });
    assert.equal(forged.status, 401);
  });

  it('a session cookie works on /v1 as that user with that role', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const session = await signIn(server, email);
    const me = await asBrowser(server, session, 'GET', '/v1/me');
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.id, agent.id);
    assert.equal(me.body.role, 'Agent');
    const created = await asBrowser(server, session, 'POST', '/v1/people', {
      body: { firstName: 'Cookie', lastName: 'Person' },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.assignedUserId, agent.id);
    // Owner-only routes stay closed to an Agent's session, as to their key.
    const keyAnswer = await server.post(agent.key, '/v1/stages', { name: unique('Stage') });
    const cookieAnswer = await asBrowser(server, session, 'POST', '/v1/stages', {
      body: { name: unique('Stage') },
    });
    assert.equal(cookieAnswer.status, keyAnswer.status);
    assert.equal(cookieAnswer.status, 403);
  });

  it('refuses a cookie-authenticated write without the right CSRF token', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const session = await signIn(server, email);
    for (const csrf of [null, 'wrong', session.csrfToken.slice(0, -1) + 'x']) {
      const res = await asBrowser(server, session, 'POST', '/v1/people', {
        body: { firstName: 'Forged' },
        csrf,
      });
      assert.equal(res.status, 403, res.text);
      assert.match(res.body.errorMessage, /^Missing or wrong CSRF token/);
    }
    // The token of another session does not fit this one.
    const other = await signIn(server, email);
    const crossed = await asBrowser(server, session, 'DELETE', '/v1/people/1', {
      csrf: other.csrfToken,
    });
    assert.equal(crossed.status, 403);
    const people = await asBrowser(server, session, 'GET', '/v1/people?firstName=Forged');
    assert.equal(people.body.people.length, 0);
  });

  it('a script request without a session gets 401 without a Basic challenge', async () => {
    const res = await server.call('GET', '/v1/me', { headers: { 'sec-fetch-mode': 'cors' } });
    assert.equal(res.status, 401);
    assert.equal(res.headers['www-authenticate'], undefined);
    const curl = await server.call('GET', '/v1/me');
    assert.equal(curl.status, 401);
    assert.match(String(curl.headers['www-authenticate']), /^Basic/);
  });

  it('sign-out needs the CSRF token, ends the session and clears the cookie', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const session = await signIn(server, email);
    const refused = await asBrowser(server, session, 'POST', '/auth/logout', { csrf: null });
    assert.equal(refused.status, 403);
    const out = await asBrowser(server, session, 'POST', '/auth/logout');
    assert.equal(out.status, 204, out.text);
    assert.match(String(out.headers['set-cookie']), /^hearth_session=; Path=\/; Max-Age=0/);
    assert.equal((await asBrowser(server, session, 'GET', '/v1/me')).status, 401);
    assert.equal((await asBrowser(server, session, 'GET', '/auth/session')).status, 401);
    assert.equal((await asBrowser(server, session, 'POST', '/auth/logout')).status, 401);
  });

  it('a new sign-in replaces the session the browser came with', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const first = await signIn(server, email);
    const again = await login(server, email, GOOD_PASSWORD, { cookie: first.cookie });
    assert.equal(again.status, 200);
    assert.notEqual(sessionCookieOf(again), first.cookie);
    assert.equal((await asBrowser(server, first, 'GET', '/v1/me')).status, 401);
  });

  it('sessions expire after 12 idle hours and after 14 days however used', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const idle = await signIn(server, email);
    clock.advance(11 * 3600_000);
    assert.equal((await asBrowser(server, idle, 'GET', '/v1/me')).status, 200);
    clock.advance(11 * 3600_000); // 22 h after sign-in, 11 h after last use: still alive
    assert.equal((await asBrowser(server, idle, 'GET', '/v1/me')).status, 200);
    clock.advance(12 * 3600_000 + 1000);
    assert.equal((await asBrowser(server, idle, 'GET', '/v1/me')).status, 401);

    const busy = await signIn(server, email);
    for (let hour = 0; hour < 14 * 24 - 10; hour += 10) {
      clock.advance(10 * 3600_000);
      assert.equal((await asBrowser(server, busy, 'GET', '/auth/session')).status, 200);
    }
    clock.advance(10 * 3600_000);
    assert.equal((await asBrowser(server, busy, 'GET', '/auth/session')).status, 401);
  });

  it('a password change ends every session of the user (admin set-password)', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const one = await signIn(server, email);
    const two = await signIn(server, email);
    const env = { DATABASE_URL: server.ctx.config.databaseUrl, HEARTH_DATA_DIR: server.dataDir };
    const weak = runAdmin(['set-password', '--email', email], env);
    assert.notEqual(weak.code, 0);
    const changed = runAdmin(['set-password', '--email', email], env, 'a-brand-new-passphrase\n');
    assert.equal(changed.code, 0, changed.stderr);
    assert.deepEqual(JSON.parse(changed.stdout).user.id, agent.id);
    for (const session of [one, two])
      assert.equal((await asBrowser(server, session, 'GET', '/v1/me')).status, 401);
    assert.equal((await login(server, email, GOOD_PASSWORD)).status, 401);
    assert.equal((await login(server, email, 'a-brand-new-passphrase')).status, 200);
    const tooShort = runAdmin(['set-password', '--email', email], env, 'short\n');
    assert.equal(tooShort.code, 1);
    assert.match(tooShort.stderr, /at least 12 characters/);
    const common = runAdmin(['set-password', '--email', email], env, 'Password1234\n');
    assert.match(common.stderr, /too common/);
  });
});

describe('sign-in throttling', () => {
  let server: TestServer;
  let account: TestAccount;
  before(async () => {
    // Behind a proxy, so each test can sign in from its own address (X-Forwarded-For).
    server = await startServer({ env: { HEARTH_TRUST_PROXY: '1' } });
    account = await server.newAccount();
  });
  after(async () => server.close());

  let addressCounter = 0;
  const newAddress = () => `203.0.113.${(addressCounter += 1)}`;
  const via = (address: string) => ({ 'x-forwarded-proto': 'https', 'x-forwarded-for': address });

  it('after 5 failures for one email, refuses even the right password with 429 + Retry-After', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const unknownEmail = `${unique('ghost')}@example.com`;
    for (const target of [email, unknownEmail]) {
      for (let i = 0; i < 5; i++) {
        const res = await login(server, target, `wrong-password-${i}`, via(newAddress()));
        assert.equal(res.status, 401, res.text);
      }
    }
    for (const target of [email, unknownEmail]) {
      const res = await login(server, target, GOOD_PASSWORD, via(newAddress()));
      assert.equal(res.status, 429, res.text);
      const retryAfter = Number(res.headers['retry-after']);
      assert.ok(retryAfter > 800 && retryAfter <= 900, `Retry-After ${retryAfter}`);
      assert.match(res.body.errorMessage, /Too many failed sign-ins; try again in \d+ seconds/);
      assert.equal(res.headers['set-cookie'], undefined);
    }
    // Known and unknown emails are refused in the same words: nothing tells them apart.
    const known = await login(server, email, GOOD_PASSWORD, via(newAddress()));
    const unknown = await login(server, unknownEmail, GOOD_PASSWORD, via(newAddress()));
    assert.equal(
      known.body.errorMessage.replace(/\d+/, 'N'),
      unknown.body.errorMessage.replace(/\d+/, 'N'),
    );
  });

  it('after 50 failures from one address, refuses every email from it', async () => {
    const address = newAddress();
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    for (let batch = 0; batch < 5; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          login(server, `${unique('spray')}@example.com`, 'guessing-password', via(address)),
        ),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(10).fill(401),
      );
    }
    const blocked = await login(server, email, GOOD_PASSWORD, via(address));
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers['retry-after']) > 0);
    const elsewhere = await login(server, email, GOOD_PASSWORD, via(newAddress()));
    assert.equal(elsewhere.status, 200, elsewhere.text);
  });

  it('a successful sign-in forgives the email its earlier failures', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    for (let i = 0; i < 4; i++) await login(server, email, 'wrong-password!', via(newAddress()));
    assert.equal((await login(server, email, GOOD_PASSWORD, via(newAddress()))).status, 200);
    for (let i = 0; i < 4; i++) await login(server, email, 'wrong-password!', via(newAddress()));
    assert.equal((await login(server, email, GOOD_PASSWORD, via(newAddress()))).status, 200);
  });
});

describe('purging what can no longer be used', () => {
  it('drops expired sessions and keeps live ones', async () => {
    const clock = movableClock();
    const server = await startServer({ clock });
    try {
      const account = await server.newAccount();
      const agent = await account.addUser('Agent');
      const { email } = await givePassword(server, agent);
      const stale = await signIn(server, email);
      clock.advance(13 * 3600_000);
      const fresh = await signIn(server, email);
      await purgeAuthLeftovers(server.ctx.db, clock.now());
      const rows = await server.ctx.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', agent.id)
        .execute();
      assert.equal(rows.length, 1);
      assert.equal((await asBrowser(server, fresh, 'GET', '/v1/me')).status, 200);
      assert.equal((await asBrowser(server, stale, 'GET', '/v1/me')).status, 401);
    } finally {
      await server.close();
    }
  });
});
