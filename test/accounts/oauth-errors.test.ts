import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type TestAccount, type TestServer, startServer } from '../support/server.js';
import {
  REDIRECT,
  assertTokenError,
  authorize,
  clientBasic,
  legacyToken,
  newClient,
  pkce,
  redirectedTo,
  token,
} from './oauth-helpers.js';

describe('OAuth: error answers', () => {
  let server: TestServer;
  let account: TestAccount;
  let confidential: { clientId: string; clientSecret?: string };
  let publicClient: { clientId: string };

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    confidential = await newClient(server, account.accountId);
    publicClient = await newClient(server, account.accountId, { isPublic: true });
  });
  after(async () => server.close());

  const basicAuth = () => ({
    authorization: clientBasic(confidential.clientId, confidential.clientSecret!),
  });

  it('invalid_request: missing grant_type or grant parameters, empty or malformed bodies, repeated parameters, two auth methods', async () => {
    assertTokenError(await token(server, {}, basicAuth()), 400, 'invalid_request', /grant_type/);
    assertTokenError(
      await server.call('POST', '/oauth/token', {
        raw: '',
        contentType: 'application/x-www-form-urlencoded',
      }),
      400,
      'invalid_request',
      /grant_type/,
    );
    assertTokenError(
      await token(server, { grant_type: 'authorization_code' }, basicAuth()),
      400,
      'invalid_request',
      /Missing parameter: code/,
    );
    assertTokenError(
      await token(server, { grant_type: 'refresh_token', refresh_token: '' }, basicAuth()),
      400,
      'invalid_request',
      /refresh_token/,
    );
    assertTokenError(
      await server.call('POST', '/oauth/token', {
        raw: '{"grant_type":',
        contentType: 'application/json',
      }),
      400,
      'invalid_request',
      /Malformed JSON/,
    );
    assertTokenError(
      await server.call('POST', '/oauth/token', {
        raw: 'grant_type=refresh_token&grant_type=authorization_code',
        contentType: 'application/x-www-form-urlencoded',
      }),
      400,
      'invalid_request',
      /grant_type/,
    );
    assertTokenError(
      await token(
        server,
        {
          grant_type: 'refresh_token',
          refresh_token: 'x',
          client_secret: confidential.clientSecret!,
        },
        basicAuth(),
      ),
      400,
      'invalid_request',
      /not both/,
    );
  });

  it('invalid_client (401): unknown client, wrong or missing secret, none sent, secret from a public client', async () => {
    const wrong = await token(
      server,
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: clientBasic(confidential.clientId, 'hos_wrong') },
    );
    assertTokenError(wrong, 401, 'invalid_client', /authentication failed/);
    assert.match(String(wrong.headers['www-authenticate']), /^Basic realm=/);
    const inBody = await token(server, {
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: confidential.clientId,
      client_secret: 'hos_wrong',
    });
    assertTokenError(inBody, 401, 'invalid_client');
    assert.equal(
      inBody.headers['www-authenticate'],
      undefined,
      'no Basic challenge when Basic was not used',
    );
    assertTokenError(
      await token(server, {
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: 'hoc_unknown',
      }),
      401,
      'invalid_client',
      /Unknown client/,
    );
    assertTokenError(
      await token(server, {
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: confidential.clientId,
      }),
      401,
      'invalid_client',
      /client_secret is required/,
    );
    assertTokenError(
      await token(server, { grant_type: 'refresh_token', refresh_token: 'x' }),
      401,
      'invalid_client',
      /required/,
    );
    assertTokenError(
      await token(server, {
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: publicClient.clientId,
        client_secret: 'anything',
      }),
      401,
      'invalid_client',
      /public client/,
    );
  });

  it('unsupported_grant_type and unauthorized_client', async () => {
    assertTokenError(
      await token(server, { grant_type: 'urn:example:magic' }, basicAuth()),
      400,
      'unsupported_grant_type',
      /urn:example:magic/,
    );
    assertTokenError(
      await token(server, { grant_type: 'client_credentials' }, basicAuth()),
      400,
      'unauthorized_client',
      /client_credentials/,
    );
    assertTokenError(
      await token(server, { grant_type: 'password', username: 'u', password: 'p' }, basicAuth()),
      400,
      'unauthorized_client',
    );
    // unauthorized_client needs an authenticated client first.
    assertTokenError(await token(server, { grant_type: 'password' }), 401, 'invalid_client');
  });

  it('invalid_grant: unknown code or refresh token, PKCE missing, wrong or unexpected verifier, code of another client', async () => {
    assertTokenError(
      await token(server, { grant_type: 'authorization_code', code: 'hac_nope' }, basicAuth()),
      400,
      'invalid_grant',
      /invalid/,
    );
    assertTokenError(
      await token(server, { grant_type: 'refresh_token', refresh_token: 'hrt_nope' }, basicAuth()),
      400,
      'invalid_grant',
      /invalid/,
    );

    const { verifier, challenge } = pkce();
    const withPkce = () =>
      authorize(
        server,
        {
          response_type: 'code',
          client_id: publicClient.clientId,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        },
        account.owner.key,
      );
    let code = redirectedTo(await withPkce()).get('code')!;
    assertTokenError(
      await token(server, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: publicClient.clientId,
      }),
      400,
      'invalid_grant',
      /code_verifier is required/,
    );
    code = redirectedTo(await withPkce()).get('code')!;
    assertTokenError(
      await token(server, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: publicClient.clientId,
        code_verifier: pkce().verifier,
      }),
      400,
      'invalid_grant',
      /does not match/,
    );
    code = redirectedTo(await withPkce()).get('code')!;
    assertTokenError(
      await token(server, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: confidential.clientId,
        client_secret: confidential.clientSecret!,
        code_verifier: verifier,
      }),
      400,
      'invalid_grant',
      /another client/,
    );
    // Not spent by the other client's attempt.
    const ok = await token(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: publicClient.clientId,
      code_verifier: verifier,
    });
    assert.equal(ok.status, 200, ok.text);

    const plain = redirectedTo(
      await authorize(
        server,
        { response_type: 'code', client_id: confidential.clientId },
        account.owner.key,
      ),
    ).get('code')!;
    assertTokenError(
      await token(
        server,
        { grant_type: 'authorization_code', code: plain, code_verifier: verifier },
        basicAuth(),
      ),
      400,
      'invalid_grant',
      /no code_challenge/,
    );
  });

  it('authorize: bad client_id or redirect_uri answers 400 and never redirects', async () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [
        { response_type: 'code', redirect_uri: REDIRECT },
        'invalid_request',
        /client_id is required/,
      ],
      [
        { response_type: 'code', client_id: 'hoc_unknown', redirect_uri: REDIRECT },
        'invalid_client',
        /Unknown client_id/,
      ],
      [
        {
          response_type: 'code',
          client_id: confidential.clientId,
          redirect_uri: 'https://evil.example.com/cb',
        },
        'invalid_request',
        /not registered/,
      ],
      [
        { response_type: 'code', client_id: confidential.clientId, redirect_uri: `${REDIRECT}/x` },
        'invalid_request',
        /not registered/,
      ],
    ];
    for (const [params, error, description] of cases) {
      const res = await authorize(server, params, account.owner.key);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.headers.location, undefined);
      assert.equal(res.body.error, error);
      assert.match(res.body.error_description, description);
    }
    const html = await authorize(server, cases[2][0], account.owner.key, { accept: 'text/html' });
    assert.equal(html.status, 400);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    assert.match(html.text, /not registered/);

    const several = await newClient(server, account.accountId, {
      redirectUris: [REDIRECT, 'https://app.example.com/second'],
    });
    const res = await authorize(
      server,
      { response_type: 'code', client_id: several.clientId },
      account.owner.key,
    );
    assert.equal(res.status, 400);
    assert.match(res.body.error_description, /redirect_uri is required/);
  });

  it('authorize: other problems redirect with error and state', async () => {
    const base = { client_id: publicClient.clientId, redirect_uri: REDIRECT, state: 'keep-me' };
    const { challenge } = pkce();
    const cases: [Record<string, string>, string, RegExp][] = [
      [
        { ...base, code_challenge: challenge, code_challenge_method: 'S256' },
        'invalid_request',
        /response_type is required/,
      ],
      [
        {
          ...base,
          response_type: 'token',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        },
        'unsupported_response_type',
        /token/,
      ],
      [{ ...base, response_type: 'code' }, 'invalid_request', /PKCE is required/],
      [
        {
          ...base,
          response_type: 'code',
          code_challenge: challenge,
          code_challenge_method: 'plain',
        },
        'invalid_request',
        /S256/,
      ],
      [
        { ...base, response_type: 'code', code_challenge: challenge },
        'invalid_request',
        /code_challenge_method=S256 is required/,
      ],
      [
        { ...base, response_type: 'code', code_challenge: 'short', code_challenge_method: 'S256' },
        'invalid_request',
        /43 to 128/,
      ],
    ];
    for (const [params, error, description] of cases) {
      const query = redirectedTo(await authorize(server, params, account.owner.key));
      assert.equal(query.get('error'), error, JSON.stringify(params));
      assert.match(query.get('error_description')!, description);
      assert.equal(query.get('state'), 'keep-me');
      assert.equal(query.get('code'), null);
    }
    // Request problems are reported before asking for credentials.
    const query = redirectedTo(await authorize(server, { ...base, response_type: 'token' }));
    assert.equal(query.get('error'), 'unsupported_response_type');
  });

  it('deprecated GET /oauth/token: legacy error shape with the missing parameters', async () => {
    let res = await legacyToken(server, {});
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      success: false,
      errorMessage: 'Missing parameter: grant_type (authorization_code or refresh_token)',
      errorDetails: ['grant_type'],
      errorCode: 'invalid_request',
    });
    assert.equal(res.headers.deprecation, 'true');

    res = await legacyToken(server, {
      grant_type: 'authorization_code',
      client_id: confidential.clientId,
    });
    assert.deepEqual(res.body.errorDetails, ['code']);

    res = await legacyToken(server, { grant_type: 'nonsense' });
    assert.equal(res.status, 400);
    assert.equal(res.body.success, false);
    assert.equal(res.body.errorCode, 'unsupported_grant_type');
    assert.equal(res.body.errorDetails, undefined);
    assert.match(res.body.errorMessage, /nonsense/);

    res = await legacyToken(server, {
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: confidential.clientId,
      client_secret: 'wrong',
    });
    assert.equal(res.status, 401);
    assert.equal(res.body.errorCode, 'invalid_client');

    res = await legacyToken(server, {
      grant_type: 'refresh_token',
      refresh_token: 'hrt_nope',
      client_id: confidential.clientId,
      client_secret: confidential.clientSecret!,
    });
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body).sort(), ['errorCode', 'errorMessage', 'success']);
    assert.equal(res.body.errorCode, 'invalid_grant');

    res = await server.call('GET', '/oauth/token?grant_type=a&grant_type=b');
    assert.equal(res.status, 400);
    assert.equal(res.headers.deprecation, 'true');
    assert.equal(res.body.success, false);
    assert.equal(res.body.errorCode, 'invalid_request');
  });

  it('the /oauth routes never answer in the /v1 error shape', async () => {
    const res = await server.call('POST', '/oauth/token', {
      raw: 'x'.repeat(10),
      contentType: 'text/plain',
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, 'invalid_request');
    assert.equal(res.body.errorMessage, undefined);
  });
});
