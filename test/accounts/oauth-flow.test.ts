import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';
import { hashSecret } from '../../src/accounts/keys.js';
import { purgeExpired } from '../../src/accounts/oauth/oauth.repo.js';
import {
  REDIRECT,
  assertTokenError,
  authorize,
  bearer,
  clientBasic,
  codeFlow,
  legacyToken,
  newClient,
  pkce,
  redirectedTo,
  token,
  consentFormFields,
  postConsent,
  sessionCookieForKey,
} from './oauth-helpers.js';

describe('OAuth: authorization code flow, refresh rotation, replay', () => {
  let server: TestServer;
  let account: TestAccount;
  /** Moved forward by tests that need time to pass; only ever increases. */
  let skewMs = 0;

  before(async () => {
    server = await startServer({ clock: { now: () => Date.now() + skewMs } });
    account = await server.newAccount();
  });
  after(async () => server.close());

  it('public client: sign-in, consent (Deny, Allow), code with state, PKCE exchange, Bearer on /v1', async () => {
    const client = await newClient(server, account.accountId, { isPublic: true });
    assert.equal(client.clientSecret, undefined);
    const { verifier, challenge } = pkce();
    const params = {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT,
      state: 'st/ate 1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };

    // Without a session: the sign-in page, which comes back to this request afterwards.
    const anonymous = await authorize(server, params);
    assert.equal(anonymous.status, 302);
    const login = new URL(String(anonymous.headers.location), 'https://hearth.test');
    assert.equal(login.pathname, '/login');
    const next = login.searchParams.get('next')!;
    assert.match(next, /^\/oauth\/authorize\?/);
    assert.deepEqual(Object.fromEntries(new URL(next, 'https://hearth.test').searchParams), params);
    // No Basic challenge any more: the API key is never asked for in a browser.
    assert.equal(anonymous.headers['www-authenticate'], undefined);
    const withKey = await server.call('GET', `/oauth/authorize?${new URLSearchParams(params)}`, {
      key: account.owner.key,
    });
    assert.equal(withKey.status, 302);
    assert.match(String(withKey.headers.location), /^\/login\?next=/);

    // Signed in: the consent page names the client, the user and the account.
    const cookie = (await sessionCookieForKey(server, account.owner.key))!;
    const consent = await server.call('GET', `/oauth/authorize?${new URLSearchParams(params)}`, {
      headers: { cookie },
    });
    assert.equal(consent.status, 200, consent.text);
    assert.match(String(consent.headers['content-type']), /^text\/html/);
    assert.match(consent.text, /Allow Listing App to use your Hearth account\?/);
    const identity = (await server.get(account.owner.key, '/v1/identity')).body;
    assert.ok(consent.text.includes(`Account: <strong>${identity.account.name}</strong>`));
    assert.ok(consent.text.includes(`Signed in as <strong>${identity.user.name}</strong>`));
    assert.match(consent.text, />Allow<\/button>/);
    assert.match(consent.text, />Deny<\/button>/);
    assert.doesNotMatch(consent.text, /<script/);
    assert.equal(consent.headers['cache-control'], 'no-store');
    const csp = String(consent.headers['content-security-policy']);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /script-src 'self'/);
    const fields = consentFormFields(consent.text);
    assert.ok(!consent.text.includes(account.owner.key));

    // The form is refused without the session's CSRF token, or without the session.
    const forged = await postConsent(
      server,
      { ...fields, csrf_token: 'x', decision: 'allow' },
      cookie,
    );
    assert.equal(forged.status, 403);
    const noSession = await postConsent(server, { ...fields, decision: 'allow' }, null);
    assert.equal(noSession.status, 302);
    assert.match(String(noSession.headers.location), /^\/login\?next=/);

    // Deny: back to the client with access_denied and the state.
    const denied = redirectedTo(await postConsent(server, { ...fields, decision: 'deny' }, cookie));
    assert.equal(denied.get('error'), 'access_denied');
    assert.equal(denied.get('state'), 'st/ate 1');
    assert.equal(denied.get('code'), null);

    const query = redirectedTo(await authorize(server, params, account.owner.key));
    assert.equal(query.get('state'), 'st/ate 1');
    const code = query.get('code')!;
    assert.match(code, /^hac_/);
    const stored = await server.ctx.db
      .selectFrom('oauth_codes')
      .selectAll()
      .where('code_hash', '=', hashSecret(code))
      .executeTakeFirstOrThrow();
    assert.equal(stored.user_id, account.owner.id);
    assert.equal(stored.code_challenge, challenge);

    const res = await token(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: client.clientId,
      code_verifier: verifier,
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), [
      'access_token',
      'expires_in',
      'refresh_token',
      'token_type',
    ]);
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.notEqual(res.body.access_token, res.body.refresh_token);
    // Stored hashed only.
    const row = await server.ctx.db
      .selectFrom('oauth_tokens')
      .selectAll()
      .where('access_hash', '=', hashSecret(res.body.access_token))
      .executeTakeFirstOrThrow();
    assert.equal(row.refresh_hash, hashSecret(res.body.refresh_token));

    const person = await server.post(account.owner.key, '/v1/people', {
      firstName: 'Tok',
      lastName: 'En',
    });
    const viaToken = await bearer(server, res.body.access_token, `/v1/people/${person.body.id}`);
    assert.equal(viaToken.status, 200, viaToken.text);
    assert.equal(viaToken.body.firstName, 'Tok');
    const me = await bearer(server, res.body.access_token, '/v1/me');
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.id, account.owner.id);
  });

  it('accepts response_type=auth_code and a JSON token request', async () => {
    const client = await newClient(server, account.accountId, { isPublic: true });
    const { verifier, challenge } = pkce();
    const query = redirectedTo(
      await authorize(
        server,
        {
          response_type: 'auth_code',
          client_id: client.clientId,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        },
        account.owner.key,
      ),
    );
    assert.equal(query.get('state'), null);
    const res = await server.call('POST', '/oauth/token', {
      body: {
        grant_type: 'authorization_code',
        code: query.get('code'),
        redirect_uri: REDIRECT,
        client_id: client.clientId,
        code_verifier: verifier,
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.token_type, 'Bearer');
  });

  it('confidential client: secret in HTTP Basic or in the body; redirect_uri optional when it was not sent', async () => {
    const client = await newClient(server, account.accountId);
    assert.match(client.clientSecret!, /^hos_/);
    const stored = await server.ctx.db
      .selectFrom('oauth_clients')
      .select('secret_hash')
      .where('identifier', '=', client.clientId)
      .executeTakeFirstOrThrow();
    assert.equal(stored.secret_hash, hashSecret(client.clientSecret!));

    // Basic; the client registered one redirect URI, so the authorization request may omit it.
    let query = redirectedTo(
      await authorize(
        server,
        { response_type: 'code', client_id: client.clientId, state: 'a' },
        account.owner.key,
      ),
    );
    const viaBasic = await token(
      server,
      { grant_type: 'authorization_code', code: query.get('code')! },
      { authorization: clientBasic(client.clientId, client.clientSecret!) },
    );
    assert.equal(viaBasic.status, 200, viaBasic.text);

    // Body parameters, with the redirect_uri repeated as sent.
    query = redirectedTo(
      await authorize(
        server,
        { response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 'b' },
        account.owner.key,
      ),
    );
    const viaBody = await token(server, {
      grant_type: 'authorization_code',
      code: query.get('code')!,
      redirect_uri: REDIRECT,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    assert.equal(viaBody.status, 200, viaBody.text);
    assert.equal((await bearer(server, viaBody.body.access_token, '/v1/people')).status, 200);

    // Having sent redirect_uri, the token request must repeat it.
    query = redirectedTo(
      await authorize(
        server,
        { response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT },
        account.owner.key,
      ),
    );
    assertTokenError(
      await token(
        server,
        { grant_type: 'authorization_code', code: query.get('code')! },
        { authorization: clientBasic(client.clientId, client.clientSecret!) },
      ),
      400,
      'invalid_grant',
      /redirect_uri/,
    );
  });

  it('refresh rotation: each refresh token works once; reusing one revokes the whole family', async () => {
    const client = await newClient(server, account.accountId);
    const first = await codeFlow(server, client, account.owner.key);
    const auth = { authorization: clientBasic(client.clientId, client.clientSecret!) };

    const second = await token(
      server,
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      auth,
    );
    assert.equal(second.status, 200, second.text);
    assert.equal(second.headers['cache-control'], 'no-store');
    assert.notEqual(second.body.refresh_token, first.refresh_token);
    assert.notEqual(second.body.access_token, first.access_token);
    const third = await token(
      server,
      { grant_type: 'refresh_token', refresh_token: second.body.refresh_token },
      auth,
    );
    assert.equal(third.status, 200, third.text);
    assert.equal((await bearer(server, third.body.access_token, '/v1/people')).status, 200);

    // The first refresh token was rotated away: presenting it again is reuse.
    assertTokenError(
      await token(
        server,
        { grant_type: 'refresh_token', refresh_token: first.refresh_token },
        auth,
      ),
      400,
      'invalid_grant',
      /already been used/,
    );
    // Every token of the family is now dead: the newest refresh token and access token included.
    assertTokenError(
      await token(
        server,
        { grant_type: 'refresh_token', refresh_token: third.body.refresh_token },
        auth,
      ),
      400,
      'invalid_grant',
      /revoked/,
    );
    const dead = await bearer(server, third.body.access_token, '/v1/people');
    assert.equal(dead.status, 401);
    assert.match(String(dead.headers['www-authenticate']), /^Bearer .*error="invalid_token"/);

    // Another authorization of the same client and user is a separate family and unaffected.
    const other = await codeFlow(server, client, account.owner.key);
    assert.equal((await bearer(server, other.access_token, '/v1/people')).status, 200);
  });

  it('a refresh token works only for the client it was issued to', async () => {
    const client = await newClient(server, account.accountId);
    const intruder = await newClient(server, account.accountId);
    const issued = await codeFlow(server, client, account.owner.key);
    assertTokenError(
      await token(server, {
        grant_type: 'refresh_token',
        refresh_token: issued.refresh_token,
        client_id: intruder.clientId,
        client_secret: intruder.clientSecret!,
      }),
      400,
      'invalid_grant',
      /another client/,
    );
    const ok = await token(server, {
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    assert.equal(ok.status, 200, ok.text);
  });

  it('code replay: the second redemption fails and revokes the tokens issued from the code', async () => {
    const client = await newClient(server, account.accountId, { isPublic: true });
    const { verifier, challenge } = pkce();
    const code = redirectedTo(
      await authorize(
        server,
        {
          response_type: 'code',
          client_id: client.clientId,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        },
        account.owner.key,
      ),
    ).get('code')!;
    const params = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: client.clientId,
      code_verifier: verifier,
    };
    const first = await token(server, params);
    assert.equal(first.status, 200, first.text);
    const refreshed = await token(server, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: client.clientId,
    });
    assert.equal(refreshed.status, 200, refreshed.text);

    assertTokenError(await token(server, params), 400, 'invalid_grant', /already been used/);
    assert.equal((await bearer(server, first.body.access_token, '/v1/people')).status, 401);
    assert.equal((await bearer(server, refreshed.body.access_token, '/v1/people')).status, 401);
    assertTokenError(
      await token(server, {
        grant_type: 'refresh_token',
        refresh_token: refreshed.body.refresh_token,
        client_id: client.clientId,
      }),
      400,
      'invalid_grant',
    );
  });

  it('concurrent redemptions of one code: exactly one succeeds', async () => {
    const client = await newClient(server, account.accountId);
    const code = redirectedTo(
      await authorize(
        server,
        { response_type: 'code', client_id: client.clientId },
        account.owner.key,
      ),
    ).get('code')!;
    const auth = { authorization: clientBasic(client.clientId, client.clientSecret!) };
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        token(server, { grant_type: 'authorization_code', code }, auth),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400, 400, 400]);
  });

  it('a code tried with a wrong verifier or redirect_uri is spent', async () => {
    const client = await newClient(server, account.accountId, {
      isPublic: true,
      redirectUris: [REDIRECT, 'https://app.example.com/second'],
    });
    const { verifier, challenge } = pkce();
    const code = redirectedTo(
      await authorize(
        server,
        {
          response_type: 'code',
          client_id: client.clientId,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        },
        account.owner.key,
      ),
    ).get('code')!;
    assertTokenError(
      await token(server, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://app.example.com/second',
        client_id: client.clientId,
        code_verifier: verifier,
      }),
      400,
      'invalid_grant',
      /redirect_uri does not match/,
    );
    assertTokenError(
      await token(server, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: client.clientId,
        code_verifier: verifier,
      }),
      400,
      'invalid_grant',
      /already been used/,
    );
  });

  it('codes expire after 10 minutes, access tokens after expires_in', async () => {
    const client = await newClient(server, account.accountId);
    const auth = { authorization: clientBasic(client.clientId, client.clientSecret!) };
    const stale = redirectedTo(
      await authorize(
        server,
        { response_type: 'code', client_id: client.clientId },
        account.owner.key,
      ),
    ).get('code')!;
    const fresh = redirectedTo(
      await authorize(
        server,
        { response_type: 'code', client_id: client.clientId },
        account.owner.key,
      ),
    ).get('code')!;
    const live = await codeFlow(server, client, account.owner.key);
    skewMs += 9 * 60_000;
    const inTime = await token(server, { grant_type: 'authorization_code', code: fresh }, auth);
    assert.equal(inTime.status, 200, inTime.text);
    skewMs += 61_000;
    assertTokenError(
      await token(server, { grant_type: 'authorization_code', code: stale }, auth),
      400,
      'invalid_grant',
      /expired/,
    );

    // live's access token was issued ~10 minutes ago: still valid until an hour has passed.
    assert.equal((await bearer(server, live.access_token, '/v1/people')).status, 200);
    skewMs += 51 * 60_000;
    const expired = await bearer(server, live.access_token, '/v1/people');
    assert.equal(expired.status, 401);
    assert.equal(
      expired.headers['www-authenticate'],
      'Bearer realm="Hearth", error="invalid_token", error_description="The access token has expired"',
    );
    assert.match(expired.body.errorMessage, /expired/);
    // The refresh token outlives it and gets a new pair.
    const renewed = await token(
      server,
      { grant_type: 'refresh_token', refresh_token: live.refresh_token },
      auth,
    );
    assert.equal(renewed.status, 200, renewed.text);
    assert.equal((await bearer(server, renewed.body.access_token, '/v1/people')).status, 200);
  });

  it('deprecated GET /oauth/token: legacy success shape with string values', async () => {
    const client = await newClient(server, account.accountId);
    const code = redirectedTo(
      await authorize(
        server,
        { response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT },
        account.owner.key,
      ),
    ).get('code')!;
    const res = await legacyToken(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.deprecation, 'true');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.body.success, true);
    const data = res.body.data;
    assert.deepEqual(Object.keys(data).sort(), [
      'access_token',
      'expires_at',
      'issued_at',
      'refresh_token',
      'token_type',
      'ttl',
    ]);
    for (const value of Object.values(data)) assert.equal(typeof value, 'string');
    assert.equal(data.token_type, 'bearer');
    assert.equal(data.ttl, '3600');
    assert.match(data.issued_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(Date.parse(data.expires_at) - Date.parse(data.issued_at), 3600_000);
    assert.equal((await bearer(server, data.access_token, '/v1/people')).status, 200);

    const refreshed = await legacyToken(
      server,
      { grant_type: 'refresh_token', refresh_token: data.refresh_token },
      { authorization: clientBasic(client.clientId, client.clientSecret!) },
    );
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal(refreshed.body.data.token_type, 'bearer');
  });
  it('the hourly purge drops unusable tokens and spent codes, and keeps live families', async () => {
    const purgeAccount = await server.newAccount();
    const client = await newClient(server, purgeAccount.accountId);
    const old = await codeFlow(server, client, purgeAccount.owner.key);
    const live = await codeFlow(server, client, purgeAccount.owner.key);
    const oldCode = await server.ctx.db
      .selectFrom('oauth_codes')
      .select('id')
      .where('code_hash', '=', hashSecret(old.code))
      .executeTakeFirstOrThrow();
    // Age the first family only: its refresh token and its code expired long ago.
    await server.ctx.db
      .updateTable('oauth_tokens')
      .set({ refresh_expires_at: '2000-01-01T00:00:00.000Z' })
      .where('code_id', '=', oldCode.id)
      .execute();
    await server.ctx.db
      .updateTable('oauth_codes')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('account_id', '=', purgeAccount.accountId)
      .execute();
    await purgeExpired(server.ctx.db, Date.now());
    const codes = await server.ctx.db
      .selectFrom('oauth_codes')
      .select('code_hash')
      .where('account_id', '=', purgeAccount.accountId)
      .execute();
    assert.deepEqual(
      codes.map((c) => c.code_hash),
      [hashSecret(live.code)],
    );
    const tokens = await server.ctx.db
      .selectFrom('oauth_tokens')
      .select('access_hash')
      .where('account_id', '=', purgeAccount.accountId)
      .execute();
    assert.deepEqual(
      tokens.map((t) => t.access_hash),
      [hashSecret(live.access_token)],
    );
    assert.equal((await bearer(server, live.access_token, '/v1/people')).status, 200);
  });
});
