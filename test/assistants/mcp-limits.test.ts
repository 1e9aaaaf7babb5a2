import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TestServer, startServer } from '../support/server.js';
import { connectWithKey } from './mcp-helpers.js';

// The tools call the services in process: each call still counts against the caller's rate
// limit as the REST request it stands for, in the same bucket as their own requests.
describe('MCP: tool calls count against the rate limit of the routes they stand for', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-mcp-rl-'));
  let server: TestServer;
  let key: string;
  let personId: number;
  let mcp: Awaited<ReturnType<typeof connectWithKey>>;

  before(async () => {
    const file = path.join(dir, 'limits.json');
    writeFileSync(file, JSON.stringify({ withoutSystemKey: { global: 4 } }));
    server = await startServer({ env: { HEARTH_RATE_LIMITS: file } });
    key = (await server.newAccount()).owner.key;
    personId = (await server.newPerson(key)).id; // the first of the four
    mcp = await connectWithKey(server, key);
  });
  after(async () => {
    await mcp?.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the call past the limit with the REST words, and the REST request after it', async () => {
    const note = { name: 'add_note', arguments: { personId, body: 'Called back' } };
    assert.equal((await mcp.client.callTool(note)).isError, undefined);
    assert.equal((await server.get(key, `/v1/people/${personId}`)).status, 200);
    const task = await mcp.client.callTool({
      name: 'create_task',
      arguments: { personId, name: 'Send the listing' },
    });
    assert.equal(task.isError, undefined, JSON.stringify(task));
    const refused = await mcp.client.callTool(note);
    assert.equal(refused.isError, true);
    assert.match(
      (refused.content as { text: string }[])[0].text,
      /^Rate limit exceeded for context 'global': 4 requests per 10 seconds; retry after \d+ seconds?$/,
    );
    assert.equal((await server.get(key, `/v1/notes?personId=${personId}`)).status, 429);
    const notes = await server.ctx.db
      .selectFrom('notes')
      .select('id')
      .where('person_id', '=', personId)
      .execute();
    assert.equal(notes.length, 1, 'the refused call stored nothing');
  });
});
