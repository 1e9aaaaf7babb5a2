import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PUBLIC_URL, type ApiResponse, type TestServer, startServer } from '../support/server.js';
import { freshCredentials } from '../../src/inbox/mailboxes/oauth.js';
import { openCredentials } from '../../src/inbox/mailboxes/credentials.js';
import { type OAuthProviderStandIn, startOAuthProvider } from './oauth-provider.js';

describe('mailboxes signed in with OAuth 2.0 (XOAUTH2)', () => {
  let api: TestServer;
  let endpoint: OAuthProviderStandIn;
  before(async () => {
    endpoint = await startOAuthProvider('Sam.Agent@Gmail.test');
    api = await startServer({
      env: {
        ...endpoint.env,
        // The sign-in page's address is Google's own, as configured by default.
        HEARTH_MAILBOX_GOOGLE_AUTHORIZE_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
        HEARTH_MAILBOX_TIMEOUT: '2',
      },
    });
  });
  after(async () => {
    await api?.close();
    await endpoint?.close();
  });

  it('exchanges the code, stores the grant sealed, and refreshes an expired token', async () => {
    const account = await api.newAccount();
    const agent = await account.addUser('Agent');
    const other = await account.addUser('Agent');
    const start = await api.get(agent.key, '/v1/mailboxes/oauth/google/start');
    assert.equal(start.status, 200, start.text);
    const url = new URL(start.body.authorizeUrl);
    assert.equal(url.origin + url.pathname, 'https://accounts.google.com/o/oauth2/v2/auth');
    assert.equal(url.searchParams.get('client_id'), 'google-client');
    assert.equal(
      url.searchParams.get('redirect_uri'),
      `${PUBLIC_URL}/v1/mailboxes/oauth/google/callback`,
    );
    assert.match(url.searchParams.get('scope')!, /https:\/\/mail\.google\.com\//);
    const state = url.searchParams.get('state')!;

    const callback = (key: string, code: string, s: string) =>
      api.get(
        key,
        `/v1/mailboxes/oauth/google/callback?code=${code}&state=${encodeURIComponent(s)}&authuser=0`,
      );
    // Someone else's state, a forged one, a code the provider refuses, or a sign-in cancelled at
    // the provider: back to Settings saying why, nothing stored.
    const settingsError = (res: ApiResponse) => {
      assert.equal(res.status, 302);
      const location = new URL(String(res.headers.location), PUBLIC_URL);
      assert.equal(location.pathname, '/settings');
      return location.searchParams.get('mailboxError');
    };
    assert.match(settingsError(await callback(other.key, 'c1', state))!, /started by someone else/);
    assert.match(
      settingsError(await callback(agent.key, 'c1', `${state.split('.')[0]}.forged`))!,
      /state is not valid/,
    );
    assert.match(settingsError(await callback(agent.key, 'bad', state))!, /refused: Bad Request/);
    const cancelled = await api.get(
      agent.key,
      `/v1/mailboxes/oauth/google/callback?error=access_denied&state=${encodeURIComponent(state)}`,
    );
    assert.equal(settingsError(cancelled), 'The sign-in was cancelled at the provider');
    assert.deepEqual((await api.get(agent.key, '/v1/mailboxes')).body.mailboxes, []);

    const done = await callback(agent.key, 'code-1', state);
    assert.equal(done.status, 302, done.text);
    const exchange = endpoint.seen.at(-1)!;
    assert.equal(exchange.get('grant_type'), 'authorization_code');
    assert.equal(exchange.get('code'), 'code-1');
    assert.equal(exchange.get('redirect_uri'), `${PUBLIC_URL}/v1/mailboxes/oauth/google/callback`);
    const id = Number(/mailbox=(\d+)/.exec(String(done.headers.location))![1]);
    const box = (await api.get(agent.key, `/v1/mailboxes/${id}`)).body;
    assert.equal(box.address, 'sam.agent@gmail.test');
    assert.equal(box.authKind, 'google');
    assert.deepEqual(box.imap, { host: 'imap.gmail.com', port: 993, secure: true });
    // Gmail is out of reach here: the status says so, as it would for any unreachable server.
    assert.equal(box.status, 'error');

    const row = await api.ctx.db
      .selectFrom('mailboxes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.doesNotMatch(row.secret, /access-|refresh-1/, 'tokens are sealed at rest');
    const renewed = await freshCredentials(api.ctx, row);
    assert.equal(endpoint.seen.at(-1)!.get('grant_type'), 'refresh_token');
    assert.equal(endpoint.seen.at(-1)!.get('refresh_token'), 'refresh-1');
    assert.ok(renewed.kind === 'oauth' && renewed.accessToken === 'access-2');
    const stored = await api.ctx.db
      .selectFrom('mailboxes')
      .select('secret')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const reopened = openCredentials(api.ctx.config, stored.secret);
    assert.ok(
      reopened.kind === 'oauth' &&
        reopened.accessToken === 'access-2' &&
        reopened.refreshToken === 'refresh-1',
    );
  });

  it('lists the providers it has a client for, and answers 404 for the others', async () => {
    const { owner } = await api.newAccount();
    const listed = await api.get(owner.key, '/v1/mailboxes/oauth');
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body, { providers: ['google'] });
    const res = await api.get(owner.key, '/v1/mailboxes/oauth/microsoft/start');
    assert.equal(res.status, 404);
    assert.match(res.body.errorMessage, /HEARTH_MAILBOX_MICROSOFT_CLIENT_ID/);
  });
});
