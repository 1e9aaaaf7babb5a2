import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Agent, fetch as undiciFetch, request } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  basic,
  PUBLIC_URL,
  startServer,
  type TestAccount,
  type TestServer,
  type TestUser,
} from '../support/server.js';
import { MCP_URL, type Structured } from './mcp-helpers.js';

/**
 * Two API instances on one database and one Redis, with no sticky routing: every request of an
 * assistant goes to the other instance than the one before.
 */
describe(
  'MCP: a session continues at another API instance (Redis)',
  {
    skip: !process.env.TEST_REDIS_URL && 'sessions are shared through Redis: set TEST_REDIS_URL',
  },
  () => {
    const servers: TestServer[] = [];
    const agents: Agent[] = [];
    const hits = [0, 0];
    let account: TestAccount;
    let agent: TestUser;
    let personId: number;

    before(async () => {
      servers.push(await startServer());
      // The same database: PostgreSQL's, or the first instance's SQLite file.
      const database =
        process.env.TEST_DATABASE_URL || `sqlite:${path.join(servers[0]!.dataDir, 'hearth.db')}`;
      servers.push(await startServer({ env: { DATABASE_URL: database } }));
      for (const server of servers)
        agents.push(new Agent({ connect: { ca: server.cert, servername: 'localhost' } }));
      account = await servers[0]!.newAccount();
      agent = await account.addUser('Agent');
      personId = (await servers[0]!.newPerson(agent.key, { firstName: 'Nomad' })).id;
    });
    after(async () => {
      for (const dispatcher of agents) await dispatcher.close();
      for (const server of servers.reverse()) await server.close();
    });

    /** A round-robin load balancer in front of the two instances. */
    let turn = 0;
    const alternating = (async (url: string | URL, init?: RequestInit) => {
      const at = turn++ % 2;
      hits[at]! += 1;
      const target = String(url).replace(PUBLIC_URL, servers[at]!.url);
      return undiciFetch(target, { ...(init as object), dispatcher: agents[at] } as never);
    }) as unknown as FetchLike;

    /** A raw /mcp request to one instance, as the key's user. */
    const raw = (at: number, key: string, headers: Record<string, string>, body?: unknown) =>
      request(`${servers[at]!.url}/mcp`, {
        method: body === undefined ? 'GET' : 'POST',
        dispatcher: agents[at],
        headers: {
          authorization: basic(key),
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    let client: Client;
    let transport: StreamableHTTPClientTransport;

    it('initializes at one instance and calls tools at both', async () => {
      transport = new StreamableHTTPClientTransport(MCP_URL, {
        fetch: alternating,
        requestInit: { headers: { authorization: basic(agent.key) } },
      });
      client = new Client({ name: 'roaming-assistant', version: '1' });
      await client.connect(transport);
      for (let i = 0; i < 4; i += 1) {
        const read = await client.callTool({ name: 'get_person', arguments: { personId } });
        assert.equal(read.isError, undefined, JSON.stringify(read));
        assert.equal((read.structuredContent as Structured).person.firstName, 'Nomad');
      }
      assert.ok(hits[0]! >= 3 && hits[1]! >= 3, `requests per instance: ${hits.join(', ')}`);
    });

    it("answers another user's session id as unknown at either instance", async () => {
      for (const at of [0, 1]) {
        const res = await raw(
          at,
          account.owner.key,
          { 'mcp-session-id': transport.sessionId! },
          { jsonrpc: '2.0', id: 9, method: 'tools/list' },
        );
        assert.equal(res.statusCode, 404, await res.body.text());
      }
    });

    it("resumes a stream at the other instance from the first one's event ids", async () => {
      const session = { 'mcp-session-id': transport.sessionId! };
      const call = { name: 'get_person', arguments: { personId } };
      const posted = await raw(0, agent.key, session, {
        jsonrpc: '2.0',
        id: 41,
        method: 'tools/call',
        params: call,
      });
      const events = (await posted.body.text()).split('\n\n').filter(Boolean);
      const priming = /^id: (\S+)\ndata: $/.exec(events[0]!)![1]!;
      const answer = events.find((e) => e.includes('"id":41'))!;

      const resumed = await raw(1, agent.key, { ...session, 'last-event-id': priming });
      assert.equal(resumed.statusCode, 200);
      let text = '';
      for await (const chunk of resumed.body) {
        text += String(chunk);
        if (text.includes('"id":41')) break;
      }
      resumed.body.destroy();
      const replayed = text.split('\n\n').find((e) => e.includes('"id":41'))!;
      assert.equal(replayed, answer, 'the other instance replays the same event, id and all');
      assert.match(replayed, /Nomad/);
    });

    it('ends the session at one instance for both', async () => {
      const sessionId = transport.sessionId!;
      await transport.terminateSession();
      await client.close();
      for (const at of [0, 1]) {
        const res = await raw(
          at,
          agent.key,
          { 'mcp-session-id': sessionId },
          { jsonrpc: '2.0', id: 10, method: 'tools/list' },
        );
        assert.equal(res.statusCode, 404, `instance ${at}: ${await res.body.text()}`);
      }
    });
  },
);
