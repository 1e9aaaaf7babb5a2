import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  PUBLIC_URL,
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';
import { authorize, bearer, redirectedTo, sessionCookieForKey } from '../accounts/oauth-helpers.js';
import { MCP_URL, type Structured, TestOAuthProvider, testFetch } from './mcp-helpers.js';

describe('MCP: an assistant signs in with OAuth discovery, registration and consent', () => {
  let server: TestServer;
  let account: TestAccount;
  let agent: TestUser;
  let fetch: ReturnType<typeof testFetch>;
  const provider = new TestOAuthProvider('Claude (test)');
  let client: Client;
  const people = { mine: 0, notMine: 0 };

  before(async () => {
    server = await startServer();
    fetch = testFetch(server);
    account = await server.newAccount();
    agent = await account.addUser('Agent');
    people.mine = (await server.newPerson(account.owner.key, { assignedUserId: agent.id })).id;
    people.notMine = (await server.newPerson(account.owner.key)).id;
  });
  after(async () => {
    await client?.close();
    await fetch.close();
    await server.close();
  });

  it('answers 401 pointing at the protected-resource metadata, which names Hearth', async () => {
    const res = await server.call('POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    assert.equal(res.status, 401, res.text);
    const metadataUrl = `${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp`;
    assert.equal(res.headers['www-authenticate'], `Bearer resource_metadata="${metadataUrl}"`);
    const resource = await server.call('GET', '/.well-known/oauth-protected-resource/mcp');
    assert.deepEqual(resource.body.authorization_servers, [PUBLIC_URL]);
    assert.equal(resource.body.resource, `${PUBLIC_URL}/mcp`);
    const as = await server.call('GET', '/.well-known/oauth-authorization-server');
    assert.equal(as.body.registration_endpoint, `${PUBLIC_URL}/oauth/register`);
    assert.deepEqual(as.body.code_challenge_methods_supported, ['S256']);
    assert.equal(as.body.token_endpoint, `${PUBLIC_URL}/oauth/token`);
  });

  it('registers, sends the user to the consent page, and gets a token bound to /mcp', async () => {
    const first = new StreamableHTTPClientTransport(MCP_URL, { fetch, authProvider: provider });
    await assert.rejects(
      new Client({ name: 'assistant', version: '1' }).connect(first),
      UnauthorizedError,
    );
    assert.match(String(provider.client?.client_id), /^hdc_/);
    const url = provider.authorizationUrl!;
    assert.equal(url.origin + url.pathname, `${PUBLIC_URL}/oauth/authorize`);
    assert.equal(url.searchParams.get('resource'), `${PUBLIC_URL}/mcp`);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    const params = Object.fromEntries(url.searchParams);

    const cookie = await sessionCookieForKey(server, agent.key);
    const page = await server.call('GET', `/oauth/authorize?${url.searchParams}`, {
      headers: { cookie: cookie! },
    });
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /Allow Claude \(test\) to use your Hearth account\?/);
    assert.match(page.text, /As an AI assistant it may, with your access as Agent/);
    assert.match(page.text, /registered itself/);

    const code = redirectedTo(await authorize(server, params, agent.key), provider.redirect).get(
      'code',
    )!;
    await first.finishAuth(code);
    const accessToken = provider.saved!.access_token;
    const rest = await bearer(server, accessToken, '/v1/people');
    assert.equal(rest.status, 401, 'a token bound to /mcp is not a REST API token');

    client = new Client({ name: 'assistant', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(MCP_URL, { fetch, authProvider: provider }),
    );
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'get_person'));
  });

  it("acts inside the user's role: an Agent's assistant cannot read another agent's person", async () => {
    const mine = await client.callTool({
      name: 'get_person',
      arguments: { personId: people.mine },
    });
    assert.equal(mine.isError, undefined, JSON.stringify(mine));
    assert.equal((mine.structuredContent as Structured).person.id, people.mine);
    const denied = await client.callTool({
      name: 'get_person',
      arguments: { personId: people.notMine },
    });
    assert.equal(denied.isError, true);
    assert.match(JSON.stringify(denied.content), /not found/);
  });

  it('shows the assistant and its audited calls to the Owner, who disconnects it', async () => {
    assert.equal((await server.get(agent.key, '/v1/mcp/assistants')).status, 403);
    const listed = await server.get(account.owner.key, '/v1/mcp/assistants');
    assert.equal(listed.status, 200, listed.text);
    const assistant = listed.body.assistants.find((a: Structured) => a.name === 'Claude (test)');
    assert.equal(assistant.users, 1);
    const calls = await server.get(account.owner.key, '/v1/mcp/toolCalls');
    assert.equal(calls.status, 200, calls.text);
    const [denied, allowed] = calls.body.toolcalls;
    assert.deepEqual(
      [denied.tool, denied.outcome, denied.assistantName, denied.userId],
      ['get_person', 'error', 'Claude (test)', agent.id],
    );
    assert.equal(JSON.parse(denied.arguments).personId, people.notMine);
    assert.equal(allowed.outcome, 'ok');

    const removed = await server.del(account.owner.key, `/v1/mcp/assistants/${assistant.id}`);
    assert.equal(removed.status, 204, removed.text);
    const after = await server.call('POST', '/mcp', {
      headers: { authorization: `Bearer ${provider.saved!.access_token}` },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    assert.equal(after.status, 401);
    assert.match(String(after.headers['www-authenticate']), /error="invalid_token"/);
  });

  it('registers only public clients with acceptable redirect URIs, and binds only /mcp', async () => {
    const register = (body: Record<string, unknown>) =>
      server.call('POST', '/oauth/register', { body });
    const plainHttp = await register({ redirect_uris: ['http://evil.example/cb'] });
    assert.equal(plainHttp.status, 400, plainHttp.text);
    assert.equal(plainHttp.body.error, 'invalid_redirect_uri');
    const secret = await register({
      redirect_uris: ['https://a.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    assert.equal(secret.body.error, 'invalid_client_metadata');
    const ok = await register({
      redirect_uris: ['http://127.0.0.1:8123/cb'],
      client_name: 'Local',
    });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.token_endpoint_auth_method, 'none');
    const elsewhere = await authorize(
      server,
      {
        response_type: 'code',
        client_id: ok.body.client_id,
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
        resource: 'https://other.example/api',
      },
      agent.key,
    );
    assert.equal(
      redirectedTo(elsewhere, 'http://127.0.0.1:8123/cb').get('error'),
      'invalid_target',
    );
  });
});
