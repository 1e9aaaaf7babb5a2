import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer, unique } from '../support/server.js';
import { asBrowser, givePassword, signIn } from '../support/auth.js';
import { codeFlow, newClient, token } from '../accounts/oauth-helpers.js';

describe('an Idempotency-Key belongs to the credential that sent it', () => {
  let server: TestServer;
  let account: TestAccount;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
  });
  after(async () => server.close());

  const personBody = () => ({
    firstName: 'Keyed',
    emails: [{ value: `${unique('keyed')}@example.com` }],
  });

  it("an Agent reusing the Owner's key and body gets an answer of their own, not the Owner's", async () => {
    const agent = await account.addUser('Agent');
    const body = personBody();
    const headers = { 'idempotency-key': unique('shared-key') };
    const owners = await server.post(account.owner.key, '/v1/people', body, headers);
    assert.equal(owners.status, 201, owners.text);
    // Unassigned: the Agent may not see the Owner's person.
    assert.equal((await server.get(agent.key, `/v1/people/${owners.body.id}`)).status, 404);

    const agents = await server.post(agent.key, '/v1/people', body, headers);
    assert.equal(agents.headers['idempotent-replayed'], undefined);
    assert.notEqual(agents.body.id, owners.body.id);
    assert.equal(agents.body.assignedUserId, agent.id);
    const replayed = await server.post(agent.key, '/v1/people', body, headers);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(replayed.text, agents.text);
    const ownersAgain = await server.post(account.owner.key, '/v1/people', body, headers);
    assert.equal(ownersAgain.headers['idempotent-replayed'], 'true');
    assert.equal(ownersAgain.text, owners.text);
  });

  it('the same user through another credential (web session) does not get the API key’s answer', async () => {
    const agent = await account.addUser('Agent');
    const session = await signIn(server, (await givePassword(server, agent)).email);
    const body = personBody();
    const headers = { 'idempotency-key': unique('k') };
    const viaKey = await server.post(agent.key, '/v1/people', body, headers);
    assert.equal(viaKey.status, 201, viaKey.text);
    const viaSession = await server.call('POST', '/v1/people', {
      body,
      headers: { ...headers, cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    });
    assert.equal(viaSession.headers['idempotent-replayed'], undefined);
    // Created once already (same email): the session's request did its own work.
    assert.notEqual(viaSession.text, viaKey.text);
    const again = await asBrowser(server, session, 'GET', `/v1/people/${viaKey.body.id}`);
    assert.equal(again.status, 200);
  });

  it('an OAuth client keeps its keys across a token refresh', async () => {
    const agent = await account.addUser('Agent');
    const client = await newClient(server, account.accountId);
    const tokens = await codeFlow(server, client, agent.key);
    const body = personBody();
    const send = (accessToken: string) =>
      server.call('POST', '/v1/people', {
        body,
        headers: { authorization: `Bearer ${accessToken}`, 'idempotency-key': 'retry-me' },
      });
    const first = await send(tokens.access_token);
    assert.equal(first.status, 201, first.text);
    const refreshed = await token(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    assert.equal(refreshed.status, 200, refreshed.text);
    const retried = await send(refreshed.body.access_token);
    assert.equal(retried.headers['idempotent-replayed'], 'true');
    assert.equal(retried.text, first.text);
  });
});
