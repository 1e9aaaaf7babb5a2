import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { type TestServer, startServer } from '../support/server.js';
import { ToolCallTrail } from '../../src/assistants/audit.repo.js';
import type { McpCaller } from '../../src/assistants/caller.js';
import { connectWithKey } from './mcp-helpers.js';

// Tool calls are audited in batches (audit.repo.ts): a row waits at most 50 ms, and the trail's
// listing and the app's stop write what waits.
describe('MCP: the audit trail writes every call, batched', () => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  let server: TestServer;
  let account: Awaited<ReturnType<TestServer['newAccount']>>;

  before(async () => {
    server = await startServer({ logStream });
    account = await server.newAccount();
  });
  after(() => server?.close());

  const rowsOf = (accountId: number) =>
    server.ctx.db
      .selectFrom('mcp_tool_calls')
      .select(['user_id', 'tool', 'outcome', 'arguments'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();

  const callerFor = (userId: number): McpCaller =>
    ({
      auth: { accountId: account.accountId, userId, role: 'owner' },
      client: null,
    }) as unknown as McpCaller;

  it('writes a call within moments without anyone listing the trail', async () => {
    const mcp = await connectWithKey(server, account.owner.key);
    try {
      const result = await mcp.client.callTool({ name: 'list_tasks', arguments: {} });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      let rows = await rowsOf(account.accountId);
      for (let waited = 0; rows.length === 0 && waited < 2000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        rows = await rowsOf(account.accountId);
      }
      assert.deepEqual(
        rows.map((r) => [r.user_id, r.tool, r.outcome]),
        [[account.owner.id, 'list_tasks', 'ok']],
      );
    } finally {
      await mcp.close();
    }
  });

  it('keeps the other rows of a batch when one cannot be stored, and says so in the log', async () => {
    const before = (await rowsOf(account.accountId)).length;
    const trail = new ToolCallTrail(server.ctx.db, server.ctx.log);
    const at = Date.parse('2026-11-29T05:00:00Z');
    trail.record(
      callerFor(account.owner.id),
      { tool: 'search_people', arguments: { query: 'Ann' }, error: null },
      at,
    );
    // A user deleted meanwhile: the row's foreign key fails.
    trail.record(callerFor(2_000_000_000), { tool: 'get_person', arguments: {}, error: null }, at);
    trail.record(
      callerFor(account.owner.id),
      { tool: 'add_note', arguments: { personId: 1 }, error: 'Person 1 not found' },
      at,
    );
    await trail.flush();
    const rows = (await rowsOf(account.accountId)).slice(before);
    assert.deepEqual(
      rows.map((r) => [r.tool, r.outcome, r.arguments]),
      [
        ['search_people', 'ok', '{"query":"Ann"}'],
        ['add_note', 'error', '{"personId":1}'],
      ],
    );
    assert.ok(
      lines.some(
        (line) => line.includes('MCP tool call not audited') && line.includes('get_person'),
      ),
      'the lost row is logged',
    );
  });

  it('writes what waits when the app stops', async () => {
    const other = await server.newAccount();
    const mcp = await connectWithKey(server, other.owner.key);
    await mcp.client.callTool({ name: 'list_smart_lists', arguments: {} });
    await mcp.close();
    await server.app!.close();
    const rows = await rowsOf(other.accountId);
    assert.deepEqual(
      rows.map((r) => r.tool),
      ['list_smart_lists'],
    );
  });
});
