import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';
import { asBrowser, givePassword, signIn } from '../support/auth.js';
import {
  REDIRECT,
  assertTokenError,
  authorize,
  bearer,
  codeFlow,
  newClient,
  pkce,
  redirectedTo,
  token,
} from './oauth-helpers.js';

describe('deactivation ends every way a user had in', () => {
  let server: TestServer;
  let account: TestAccount;
  let heir: TestUser;
  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    heir = await account.addUser('Agent');
  });
  after(async () => server.close());

  const deactivate = async (user: TestUser) => {
    const res = await server.del(account.owner.key, `/v1/users/${user.id}?assignTo=${heir.id}`);
    assert.equal(res.status, 204, res.text);
  };

  /** A code the user granted (consent given) that the client has not exchanged yet. */
  const pendingCode = async (client: { clientId: string }, key: string) => {
    const { verifier, challenge } = pkce();
    const query = redirectedTo(
      await authorize(
        server,
        {
          response_type: 'code',
          client_id: client.clientId,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        },
        key,
      ),
    );
    return { code: query.get('code')!, verifier };
  };

  it('a code granted before deactivation is refused afterwards, and no token comes of it', async () => {
    const leaving = await account.addUser('Agent');
    const client = await newClient(server, account.accountId);
    const pending = await pendingCode(client, leaving.key);
    await deactivate(leaving);

    const exchanged = await token(server, {
      grant_type: 'authorization_code',
      code: pending.code,
      redirect_uri: REDIRECT,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
      code_verifier: pending.verifier,
    });
    assertTokenError(exchanged, 400, 'invalid_grant');
  });

  it('access and refresh tokens, the API key and web sessions all stop at once', async () => {
    const leaving = await account.addUser('Agent');
    const client = await newClient(server, account.accountId);
    const tokens = await codeFlow(server, client, leaving.key);
    const { email } = await givePassword(server, leaving);
    const session = await signIn(server, email);
    assert.equal((await bearer(server, tokens.access_token, '/v1/identity')).status, 200);
    await deactivate(leaving);

    const identity = await bearer(server, tokens.access_token, '/v1/identity');
    assert.equal(identity.status, 401, identity.text);
    const created = await server.call('POST', '/v1/people', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
      body: { firstName: 'After', lastName: 'Deactivation' },
    });
    assert.equal(created.status, 401, created.text);
    const refreshed = await token(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    assertTokenError(refreshed, 400, 'invalid_grant');
    assert.equal((await server.get(leaving.key, '/v1/identity')).status, 401);
    assert.equal((await asBrowser(server, session, 'GET', '/v1/identity')).status, 401);
  });

  it('the other users of the account keep their tokens', async () => {
    const staying = await account.addUser('Agent');
    const leaving = await account.addUser('Agent');
    const client = await newClient(server, account.accountId);
    const kept = await codeFlow(server, client, staying.key);
    await codeFlow(server, client, leaving.key);
    await deactivate(leaving);
    const res = await bearer(server, kept.access_token, '/v1/identity');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.user.id, staying.id);
    const refreshed = await token(server, {
      grant_type: 'refresh_token',
      refresh_token: kept.refresh_token,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    assert.equal(refreshed.status, 200, refreshed.text);
  });
});
