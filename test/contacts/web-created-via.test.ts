import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/server.js';
import { asBrowser, givePassword, signIn } from '../support/auth.js';

describe('createdVia of people made in the web app', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server?.close());

  it('is Manually through a session, API through an API key', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const { email } = await givePassword(server, agent);
    const session = await signIn(server, email);
    const typed = await asBrowser(server, session, 'POST', '/v1/people', {
      body: { firstName: 'Typed', lastName: 'In' },
    });
    assert.equal(typed.status, 201, typed.text);
    assert.equal(typed.body.createdVia, 'Manually');
    assert.equal(typed.body.assignedUserId, agent.id);

    const sent = await server.post(agent.key, '/v1/people', { firstName: 'Sent', lastName: 'By' });
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.body.createdVia, 'API');
  });
});
