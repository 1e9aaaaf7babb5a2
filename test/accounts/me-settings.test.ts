import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';
import { GOOD_PASSWORD, asBrowser, givePassword, login, signIn } from '../support/auth.js';

describe('your own settings: PUT /v1/me and POST /v1/me/password', () => {
  let server: TestServer;
  let account: TestAccount;

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
  });
  after(async () => server.close());

  it('changes your own name and email, and refuses another user’s email or a bad one', async () => {
    const agent = await account.addUser('Agent');
    const other = await account.addUser('Agent');
    const address = `${unique('ava')}@example.com`.toLowerCase();
    const res = await server.put(agent.key, '/v1/me', {
      name: 'Ava Brooks',
      email: address,
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      [res.body.id, res.body.name, res.body.email],
      [agent.id, 'Ava Brooks', address],
    );
    const otherEmail = (await server.get(other.key, '/v1/me')).body.email;
    const taken = await server.put(agent.key, '/v1/me', { email: otherEmail });
    assert.equal(taken.status, 409, taken.text);
    for (const body of [
      { email: 'not-an-email' },
      { name: '' },
      { name: '   ' },
      { role: 'Owner' },
    ]) {
      const bad = await server.put(agent.key, '/v1/me', body);
      assert.equal(bad.status, 400, `${JSON.stringify(body)}: ${bad.text}`);
      assert.ok(bad.body.errorMessage);
    }
    const me = (await server.get(agent.key, '/v1/me')).body;
    assert.deepEqual([me.name, me.email, me.role], ['Ava Brooks', address, 'Agent']);
  });

  it('changes your password with the current one, and ends your sessions', async () => {
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const session = await signIn(server, email);
    const wrong = await asBrowser(server, session, 'POST', '/v1/me/password', {
      body: { currentPassword: 'not-it-at-all', password: 'cobalt-meadow-violin-7' },
    });
    assert.equal(wrong.status, 400, wrong.text);
    assert.equal(wrong.body.errors[0].field, 'currentPassword');
    const weak = await asBrowser(server, session, 'POST', '/v1/me/password', {
      body: { currentPassword: GOOD_PASSWORD, password: 'short' },
    });
    assert.equal(weak.status, 400, weak.text);
    assert.equal(weak.body.errors[0].field, 'password');
    const ok = await asBrowser(server, session, 'POST', '/v1/me/password', {
      body: { currentPassword: GOOD_PASSWORD, password: 'cobalt-meadow-violin-7' },
    });
    assert.equal(ok.status, 204, ok.text);
    assert.equal((await asBrowser(server, session, 'GET', '/v1/me')).status, 401);
    assert.equal((await login(server, email, GOOD_PASSWORD)).status, 401);
    assert.equal((await login(server, email, 'cobalt-meadow-violin-7')).status, 200);
  });
});
