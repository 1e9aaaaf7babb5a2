import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { type TestServer, startServer } from '../support/server.js';
import { asBrowser, givePassword, GOOD_PASSWORD, login, signIn } from '../support/auth.js';

describe('secrets stay out of the logs', () => {
  let server: TestServer;
  let logged = '';
  before(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    server = await startServer({ logStream: stream });
  });
  after(async () => server.close());

  it('never logs an API key, a session id, a CSRF token or a password', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    await login(server, email, 'a-wrong-password-typed');
    const session = await signIn(server, email);
    const sessionId = session.cookie.split('=')[1]!;
    await asBrowser(server, session, 'GET', '/v1/me');
    await asBrowser(server, session, 'POST', '/v1/people', { body: { firstName: 'Logged' } });
    await asBrowser(server, session, 'POST', '/v1/people', { body: {}, csrf: 'bad' });
    await server.get(agent.key, '/v1/me');
    await server.get(`${agent.key}x`, '/v1/me');
    await asBrowser(server, session, 'POST', '/auth/logout');
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(logged.includes('/v1/me'), 'requests are logged at all');
    for (const [what, secret] of [
      ['API key', agent.key],
      ['session id', sessionId],
      ['CSRF token', session.csrfToken],
      ['password', GOOD_PASSWORD],
      ['wrong password', 'a-wrong-password-typed'],
    ] as const)
      assert.ok(!logged.includes(secret), `${what} found in the log`);
  });
});
