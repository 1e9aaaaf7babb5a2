import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  type TestAccount,
  type TestServer,
  type TestUser,
  startServer,
} from '../support/server.js';
import { connectWithKey, type Structured } from './mcp-helpers.js';

/** run_report runs GET /v1/reports/… as the caller: the same figures and the same role scope. */
describe('MCP: run_report over the reports, inside the role', () => {
  let server: TestServer;
  let account: TestAccount;
  let alice: TestUser;
  let bob: TestUser;
  const assistants: Awaited<ReturnType<typeof connectWithKey>>[] = [];
  const people: Record<string, number> = {};

  async function connect(user: TestUser) {
    const mcp = await connectWithKey(server, user.key);
    assistants.push(mcp);
    return async (args: Record<string, unknown>) =>
      mcp.client.callTool({ name: 'run_report', arguments: args });
  }

  before(async () => {
    server = await startServer();
    account = await server.newAccount();
    alice = await account.addUser('Agent', 'Alice Agent');
    bob = await account.addUser('Agent', 'Bob Agent');
    const key = account.owner.key;
    for (const [name, source, user] of [
      ['Ann', 'Zillow', alice],
      ['Abe', 'Website', alice],
      ['Bea', 'Zillow', bob],
    ] as const)
      people[name] = (
        await server.newPerson(key, { firstName: name, source, assignedUserId: user.id })
      ).id;
    const call = await server.post(alice.key, '/v1/calls', {
      personId: people.Ann,
      isIncoming: false,
    });
    assert.equal(call.status, 201, call.text);
  });
  after(async () => {
    for (const mcp of assistants) await mcp.close();
    await server.close();
  });

  it('is listed as read-only', async () => {
    await connect(alice);
    const { tools } = await assistants[0]!.client.listTools();
    const tool = tools.find((t) => t.name === 'run_report')!;
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.annotations?.destructiveHint, false);
    assert.deepEqual(tool.inputSchema.required, ['report']);
  });

  it("gives an Agent their own row only, the Owner everyone's, as the REST route does", async () => {
    const asAlice = await connect(alice);
    const mine = await asAlice({ report: 'agentActivity' });
    assert.equal(mine.isError, undefined, JSON.stringify(mine));
    const rows = (mine.structuredContent as Structured).agents;
    assert.deepEqual(
      rows.map((r: Structured) => [r.name, r.newLeads, r.contacted, r.calls]),
      [['Alice Agent', 2, 1, 1]],
    );
    const rest = await server.get(alice.key, '/v1/reports/agentActivity');
    assert.deepEqual(rows, rest.body.agents);
    assert.match(JSON.stringify(mine.content), /Alice Agent: 2 new leads, 1 contacted/);

    const asOwner = await connect(account.owner);
    const all = await asOwner({ report: 'agentActivity' });
    const names = (all.structuredContent as Structured).agents.map((r: Structured) => r.name);
    for (const name of ['Alice Agent', 'Bob Agent']) assert.ok(names.includes(name), name);
  });

  it("counts an Agent's own people in lead sources and uncontacted leads", async () => {
    const asAlice = await connect(alice);
    const sources = await asAlice({ report: 'leadSources' });
    assert.deepEqual(
      (sources.structuredContent as Structured).sources
        .map((s: Structured) => [s.source, s.leads, s.contacted])
        .sort(),
      [
        ['Website', 1, 0],
        ['Zillow', 1, 1],
      ],
    );
    const waiting = await asAlice({ report: 'uncontacted' });
    assert.deepEqual(
      (waiting.structuredContent as Structured).people.map((p: Structured) => p.personId),
      [people.Abe],
      "Bob's uncontacted lead is not Alice's to see",
    );
  });

  it('pages the people behind a figure and runs the pipeline report', async () => {
    const asOwner = await connect(account.owner);
    const first = await asOwner({ report: 'people', source: 'Zillow', limit: 1 });
    assert.equal(first.isError, undefined, JSON.stringify(first));
    assert.equal((first.structuredContent as Structured).people.length, 1);
    const pipeline = await server.post(account.owner.key, '/v1/pipelines', {
      name: 'Sellers',
      stages: [{ name: 'Listed' }],
    });
    const deal = await server.post(account.owner.key, '/v1/deals', {
      name: 'Bea sells',
      stageId: pipeline.body.stages[0].id,
      price: 450000,
    });
    assert.equal(deal.status, 201, deal.text);
    const report = await asOwner({ report: 'pipeline', pipelineId: pipeline.body.id });
    assert.deepEqual(
      (report.structuredContent as Structured).stages.map((s: Structured) => [s.deals, s.value]),
      [[1, 450000]],
    );
    assert.match(JSON.stringify(report.content), /Sellers \/ Listed: 1 deals worth 450000/);
  });

  it('says which argument a report does not take, and passes on the route’s own checks', async () => {
    const asAlice = await connect(alice);
    const extra = await asAlice({ report: 'agentActivity', pipelineId: 3 });
    assert.equal(extra.isError, true);
    assert.match(JSON.stringify(extra.content), /agentActivity does not take 'pipelineId'/);
    const badDate = await asAlice({ report: 'leadSources', since: 'last Tuesday' });
    assert.equal(badDate.isError, true);
    assert.match(JSON.stringify(badDate.content), /'since' must be an ISO 8601 date/);
    const unknown = await asAlice({ report: 'commissions' });
    assert.equal(unknown.isError, true);
    assert.match(JSON.stringify(unknown.content), /'report'/);
  });
});
