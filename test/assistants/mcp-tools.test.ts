import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';
import { connectWithKey, type Structured } from './mcp-helpers.js';

describe('MCP: tools over Streamable HTTP with an API key', () => {
  let server: TestServer;
  let account: TestAccount;
  let agent: TestUser;
  let mcp: Awaited<ReturnType<typeof connectWithKey>>;

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    agent = await account.addUser('Agent');
    mcp = await connectWithKey(server, agent.key);
  });
  after(async () => {
    await mcp?.close();
    await server.close();
  });

  it('lists the tools with input and output schemas and annotations', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['search_people', 'get_person', 'add_note', 'create_task'])
      assert.ok(names.includes(name), name);
    const search = tools.find((t) => t.name === 'search_people')!;
    assert.equal(search.annotations?.readOnlyHint, true);
    assert.deepEqual(search.inputSchema.required, ['query']);
    const note = tools.find((t) => t.name === 'add_note')!;
    assert.equal(note.annotations?.readOnlyHint, false);
    assert.deepEqual([...(note.inputSchema.required ?? [])].sort(), ['body', 'personId']);
    // Nullable fields as anyOf branches: single-type dialects (Gemini's) reject `type: [T, null]`.
    const typeArrays = JSON.stringify(tools).match(/"type":\[[^\]]*\]/g) ?? [];
    assert.deepEqual(typeArrays, []);
    const person = tools.find((t) => t.name === 'get_person')!.outputSchema!.properties!.person;
    assert.deepEqual((person as Structured).properties.price.anyOf, [
      { type: 'number' },
      { type: 'null' },
    ]);
  });

  it('creates a person, finds them and adds a note', async () => {
    const created = await mcp.client.callTool({
      name: 'create_person',
      arguments: {
        firstName: 'Maria',
        lastName: 'Quintana',
        emails: [{ value: 'mq@example.com' }],
      },
    });
    assert.equal(created.isError, undefined, JSON.stringify(created));
    const person = (created.structuredContent as { person: { id: number } }).person;
    const found = await mcp.client.callTool({
      name: 'search_people',
      arguments: { query: 'Quintana' },
    });
    assert.equal(found.isError, undefined, JSON.stringify(found));
    const people = (found.structuredContent as { people: { id: number }[] }).people;
    assert.deepEqual(
      people.map((p) => p.id),
      [person.id],
    );
    const note = await mcp.client.callTool({
      name: 'add_note',
      arguments: { personId: person.id, body: 'Wants a garden' },
    });
    assert.equal(note.isError, undefined, JSON.stringify(note));
    const rest = await server.get(agent.key, `/v1/notes?personId=${person.id}`);
    assert.equal(rest.body.notes[0].body, 'Wants a garden');
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await mcp.client.callTool({ name, arguments: args });
    assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Structured;
  };

  it('logs a call, creates, lists and completes a task, and reads the timeline back', async () => {
    const person = await server.newPerson(agent.key, { firstName: 'Tomas' });
    const logged = await call('log_call', {
      personId: person.id,
      outcome: 'Interested',
      note: 'Asked about schools',
      duration: 120,
    });
    assert.equal(logged.call.note, 'Asked about schools');
    const today = new Date().toISOString().slice(0, 10);
    const { task } = await call('create_task', {
      personId: person.id,
      name: 'Send listings',
      dueDate: today,
    });
    assert.equal(task.assignedUserId, agent.id);
    const due = await call('list_tasks', { due: 'today' });
    assert.deepEqual(
      due.tasks.map((t: Structured) => t.id),
      [task.id],
    );
    assert.equal(due.total, 1);
    const done = await call('complete_task', { taskId: task.id });
    assert.equal(done.task.isCompleted, true);
    assert.equal((await call('list_tasks', { due: 'today' })).total, 0);
    const read = await call('get_person', { personId: person.id });
    assert.deepEqual(
      read.recentCalls.map((c: Structured) => c.id),
      [logged.call.id],
    );
    assert.deepEqual(read.openTasks, []);
  });

  it('pages search results with a cursor, never more than asked', async () => {
    for (let i = 0; i < 3; i += 1) await server.newPerson(agent.key, { firstName: 'Pagina' });
    const first = await call('search_people', { query: 'Pagina', limit: 2 });
    assert.equal(first.people.length, 2);
    assert.equal(first.total, 3);
    const second = await call('search_people', {
      query: 'Pagina',
      limit: 2,
      cursor: first.nextCursor,
    });
    assert.equal(second.people.length, 1);
    assert.equal(second.nextCursor, null);
    const ids = [...first.people, ...second.people].map((p: Structured) => p.id);
    assert.equal(new Set(ids).size, 3);
  });

  it('asks for confirm on tools that overwrite, then updates the person', async () => {
    const person = await server.newPerson(agent.key, { firstName: 'Olga' });
    const refused = await mcp.client.callTool({
      name: 'update_person',
      arguments: { personId: person.id, background: 'Relocating in spring' },
    });
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /confirm: true/);
    assert.notEqual(
      (await server.get(agent.key, `/v1/people/${person.id}`)).body.background,
      'Relocating in spring',
    );
    const updated = await call('update_person', {
      personId: person.id,
      background: 'Relocating in spring',
      confirm: true,
    });
    assert.equal(updated.person.background, 'Relocating in spring');
  });

  it('says which argument is wrong instead of failing', async () => {
    const bad = await mcp.client.callTool({
      name: 'add_note',
      arguments: { personId: 'x', body: 'b' },
    });
    assert.equal(bad.isError, true);
    assert.match(JSON.stringify(bad.content), /'personId'/);
    const rest = await mcp.client.callTool({
      name: 'create_task',
      arguments: { personId: 999999999, name: 'Ghost' },
    });
    assert.equal(rest.isError, true);
    assert.match(JSON.stringify(rest.content), /999999999/);
  });

  it('sends a lead event, lists and moves deals, and lists smart lists', async () => {
    const lead = await call('send_lead_event', {
      type: 'Property Inquiry',
      source: 'Open house',
      person: { firstName: 'Lena', emails: [{ value: `lena-${Date.now()}@example.com` }] },
      message: 'Is the garden south facing?',
    });
    assert.equal(lead.outcome, 'created');
    const key = account.owner.key;
    // Routed by the lead flow: the agent may not see the person, the Owner does.
    const recorded = await server.get(key, `/v1/people/${lead.person.id}`);
    assert.equal(recorded.body.firstName, 'Lena');
    const pipeline = await server.post(key, '/v1/pipelines', {
      name: 'Buyers',
      stages: [{ name: 'Touring' }, { name: 'Offer' }],
    });
    assert.equal(pipeline.status, 201, pipeline.text);
    const [touring, offer] = pipeline.body.stages as { id: number }[];
    const deal = await server.post(key, '/v1/deals', {
      name: 'Lena buys',
      stageId: touring.id,
      userIds: [agent.id],
    });
    assert.equal(deal.status, 201, deal.text);
    const listed = await call('list_deals', { stageId: touring.id });
    assert.deepEqual(
      listed.deals.map((d: Structured) => d.id),
      [deal.body.id],
    );
    const moved = await call('move_deal', {
      dealId: deal.body.id,
      stageId: offer.id,
      confirm: true,
    });
    assert.equal(moved.deal.stageId, offer.id);
    const list = await server.post(agent.key, '/v1/smartLists', {
      name: 'Hot ones',
      filters: { tags: 'vip' },
    });
    assert.equal(list.status, 201, list.text);
    const lists = await call('list_smart_lists', {});
    assert.ok(lists.smartLists.some((l: Structured) => l.name === 'Hot ones'));
  });

  it('serves a person as a resource and the showing prompt', async () => {
    const person = await server.newPerson(agent.key, { firstName: 'Ruth' });
    const read = await mcp.client.readResource({ uri: `hearth://people/${person.id}` });
    assert.equal(JSON.parse(String((read.contents[0] as { text: string }).text)).firstName, 'Ruth');
    const prompt = await mcp.client.getPrompt({
      name: 'prepare_for_showing',
      arguments: { personId: String(person.id) },
    });
    assert.match(JSON.stringify(prompt.messages), new RegExp(`person ${person.id}`));
  });

  it('ends a session with DELETE and refuses a foreign origin', async () => {
    const other = await connectWithKey(server, agent.key);
    const sessionId = other.transport.sessionId!;
    await other.transport.terminateSession();
    const ended = await server.call('POST', '/mcp', {
      key: agent.key,
      headers: { 'mcp-session-id': sessionId, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    assert.equal(ended.status, 404, ended.text);
    await other.close();
    const foreign = await server.call('POST', '/mcp', {
      key: agent.key,
      headers: { origin: 'https://evil.example', accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    assert.equal(foreign.status, 403, foreign.text);
    assert.match(foreign.body.errorMessage, /evil\.example/);
  });

  it("answers another user's session id as an unknown one", async () => {
    const owner = account.owner;
    const res = await server.call('POST', '/mcp', {
      key: owner.key,
      headers: {
        'mcp-session-id': mcp.transport.sessionId!,
        accept: 'application/json, text/event-stream',
      },
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    assert.equal(res.status, 404, res.text);
  });
});
