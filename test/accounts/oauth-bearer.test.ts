import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';
import { runAdmin } from '../support/process.js';
import { authorize, bearer, codeFlow, newClient, redirectedTo, token } from './oauth-helpers.js';

const ids = (res: { body: { people: { id: number }[] } }) =>
  res.body.people.map((p) => p.id).sort((a, b) => a - b);

describe('OAuth: Bearer tokens act with the access of their user', () => {
  let server: TestServer;
  let account: TestAccount;
  let other: TestAccount;
  let agent: TestUser;
  let client: { clientId: string; clientSecret?: string };
  const people = { agentOwn: 0, unrelated: 0, otherAccount: 0 };

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    other = await server.newAccount();
    agent = await account.addUser('Agent');
    client = await newClient(server, account.accountId);
    const make = async (key: string, body: Record<string, unknown>) => {
      const res = await server.post(key, '/v1/people', body);
      assert.equal(res.status, 201, res.text);
      return res.body.id as number;
    };
    people.agentOwn = await make(account.owner.key, {
      firstName: 'Mine',
      assignedUserId: agent.id,
    });
    people.unrelated = await make(account.owner.key, { firstName: 'NotMine' });
    people.otherAccount = await make(other.owner.key, { firstName: 'Elsewhere' });
  });
  after(async () => server.close());

  it('an Agent token sees only the Agent\u2019s people, exactly like the Agent\u2019s API key', async () => {
    const tokens = await codeFlow(server, client, agent.key);
    const viaToken = await bearer(server, tokens.access_token, '/v1/people');
    assert.equal(viaToken.status, 200, viaToken.text);
    assert.deepEqual(ids(viaToken), [people.agentOwn]);
    assert.deepEqual(ids(viaToken), ids(await server.get(agent.key, '/v1/people')));
    assert.equal(
      (await bearer(server, tokens.access_token, `/v1/people/${people.unrelated}`)).status,
      404,
    );
    // Owner-only routes stay closed to the Agent's token.
    const webhooks = await server.call('GET', '/v1/webhooks', {
      headers: { authorization: `Bearer ${tokens.access_token}`, 'x-system': 'Test' },
    });
    assert.equal(webhooks.status, 403, webhooks.text);

    const owner = await codeFlow(server, client, account.owner.key);
    assert.deepEqual(
      ids(await bearer(server, owner.access_token, '/v1/people')),
      [people.agentOwn, people.unrelated].sort((a, b) => a - b),
    );
  });

  it('a role change applies to tokens already issued', async () => {
    const lender = await account.addUser('Lender');
    const tokens = await codeFlow(server, client, lender.key);
    assert.deepEqual(ids(await bearer(server, tokens.access_token, '/v1/people')), []);
    await server.ctx.db
      .updateTable('users')
      .set({ role: 'Admin' })
      .where('id', '=', lender.id)
      .execute();
    assert.equal((await bearer(server, tokens.access_token, '/v1/people')).body.people.length, 2);
  });

  it('cross-account: a token never reaches another account, and a client of one account cannot be authorized by another\u2019s user', async () => {
    const tokens = await codeFlow(server, client, account.owner.key);
    assert.equal(
      (await bearer(server, tokens.access_token, `/v1/people/${people.otherAccount}`)).status,
      404,
    );
    assert.ok(
      !ids(await bearer(server, tokens.access_token, '/v1/people')).includes(people.otherAccount),
    );

    const query = redirectedTo(
      await authorize(
        server,
        { response_type: 'code', client_id: client.clientId, state: 'x' },
        other.owner.key,
      ),
    );
    assert.equal(query.get('error'), 'access_denied');
    assert.equal(query.get('state'), 'x');
    assert.equal(query.get('code'), null);

    // The other account's own client works for its own users, and only sees that account.
    const otherClient = await newClient(server, other.accountId);
    const otherTokens = await codeFlow(server, otherClient, other.owner.key);
    assert.deepEqual(ids(await bearer(server, otherTokens.access_token, '/v1/people')), [
      people.otherAccount,
    ]);
    // Tokens are bound to their client: the first account's client cannot refresh them.
    const refresh = await token(server, {
      grant_type: 'refresh_token',
      refresh_token: otherTokens.refresh_token,
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    assert.equal(refresh.status, 400);
    assert.equal(refresh.body.error, 'invalid_grant');
  });

  it('invalid or malformed Bearer credentials answer 401 with an invalid_token challenge; Basic is unchanged', async () => {
    for (const header of ['Bearer hat_not-a-token', 'Bearer', 'bearer    ']) {
      const res = await server.call('GET', '/v1/people', { headers: { authorization: header } });
      assert.equal(res.status, 401, header);
      assert.match(
        String(res.headers['www-authenticate']),
        /^Bearer realm="Hearth", error="invalid_token"/,
      );
      assert.equal(typeof res.body.errorMessage, 'string');
    }
    // An API key sent as a Bearer token is not an access token.
    assert.equal(
      (
        await server.call('GET', '/v1/people', {
          headers: { authorization: `Bearer ${account.owner.key}` },
        })
      ).status,
      401,
    );
    const basic = await server.get(account.owner.key, '/v1/people');
    assert.equal(basic.status, 200);
    const none = await server.call('GET', '/v1/people');
    assert.equal(none.status, 401);
    assert.match(String(none.headers['www-authenticate']), /^Basic/);
  });
});

describe('admin create-oauth-client', () => {
  let dir: string;
  const env = () => ({
    HEARTH_DATA_DIR: dir,
    DATABASE_URL: process.env.TEST_DATABASE_URL || `sqlite:${path.join(dir, 'hearth.db')}`,
    HEARTH_LOG_LEVEL: 'warn',
  });
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'hearth-oauth-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints clientId and clientSecret (none for public clients) and validates its flags', () => {
    const created = runAdmin(
      [
        'create-account',
        '--name',
        'OAuth Realty',
        '--owner-name',
        'Olga Owner',
        '--owner-email',
        `olga-${process.pid}-${Date.now()}@oauth.test`,
      ],
      env(),
    );
    assert.equal(created.code, 0, created.stderr);
    const accountId = String(JSON.parse(created.stdout).account.id);

    const confidential = runAdmin(
      [
        'create-oauth-client',
        '--account',
        accountId,
        '--name',
        'CRM Sync',
        '--redirect-uri',
        'https://crm.example.com/cb',
        '--redirect-uri',
        'http://127.0.0.1:8765/cb',
      ],
      env(),
    );
    assert.equal(confidential.code, 0, confidential.stderr);
    const c = JSON.parse(confidential.stdout);
    assert.deepEqual(Object.keys(c).sort(), ['clientId', 'clientSecret']);
    assert.match(c.clientId, /^hoc_/);
    assert.match(c.clientSecret, /^hos_/);

    const pub = runAdmin(
      [
        'create-oauth-client',
        '--account',
        accountId,
        '--name',
        'Mobile',
        '--redirect-uri',
        'com.example.mobile:/oauth',
        '--public',
      ],
      env(),
    );
    assert.equal(pub.code, 0, pub.stderr);
    assert.deepEqual(Object.keys(JSON.parse(pub.stdout)), ['clientId']);

    const bad: [string[], RegExp][] = [
      [
        ['--account', accountId, '--name', 'X', '--redirect-uri', 'http://crm.example.com/cb'],
        /must use https/,
      ],
      [
        [
          '--account',
          accountId,
          '--name',
          'X',
          '--redirect-uri',
          'https://crm.example.com/cb#frag',
        ],
        /fragment/,
      ],
      [
        ['--account', accountId, '--name', 'X', '--redirect-uri', 'javascript:alert(1)'],
        /javascript:/,
      ],
      [['--account', accountId, '--name', 'X'], /At least one redirect URI/],
      [
        ['--account', accountId, '--redirect-uri', 'https://crm.example.com/cb'],
        /--name is required/,
      ],
      [
        ['--account', '999999999', '--name', 'X', '--redirect-uri', 'https://crm.example.com/cb'],
        /Account 999999999 does not exist/,
      ],
      [
        ['--account', 'abc', '--name', 'X', '--redirect-uri', 'https://crm.example.com/cb'],
        /--account must be/,
      ],
    ];
    for (const [flags, message] of bad) {
      const res = runAdmin(['create-oauth-client', ...flags], env());
      assert.notEqual(res.code, 0, flags.join(' '));
      assert.equal(res.stdout, '');
      assert.match(res.stderr, message);
    }
  });
});
