// What a tool call costs the server next to the REST call it wraps: search_people against
// GET /v1/people?q=…&fields=…&limit=10, add_note against POST /v1/notes, list_smart_lists (with
// none to list) against GET /v1/smartLists and run_report against GET /v1/reports/agentActivity,
// every pair measured in every round, interleaved (server CPU per request, and requests per second). A tool call adds the
// JSON-RPC framing, the event-stream answer, the tool's checks and its audit row. Each MCP row's
// note says what it costs beyond its REST call and the framing (ping − livez).
// BENCH_MCP_BASELINE=<dir of another checkout, built> measures that build too, burst by burst.
import path from 'node:path';
import { BENCH_ROUNDS, type BenchHarness, type BenchRow, type BenchServer, median } from './lib.js';

const MCP_HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-11-25',
};

async function openSession(url: string, authorization: string): Promise<string> {
  const headers = { ...MCP_HEADERS, authorization };
  const init = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    }),
  });
  const sessionId = init.headers.get('mcp-session-id');
  await init.text();
  if (!sessionId) throw new Error(`initialize failed: ${init.status}`);
  await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  }).then((res) => res.text());
  return sessionId;
}

/**
 * A tools/call body with a fresh JSON-RPC id per request: the ten connections share one session,
 * and requests in flight in one session must not share an id.
 */
let nextId = 1;
const toolCall = (name: string, args: Record<string, unknown>) => () => ({
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name, arguments: args },
  }),
});

type Target = Parameters<BenchHarness['measure']>[0];
type Build = { label: string; pairs: Target[][] };

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const baseline = process.env.BENCH_MCP_BASELINE;
  const servers: BenchServer[] = [];
  try {
    const builds: Build[] = [];
    for (const [label, script] of [
      ['', undefined],
      ...(baseline ? [[' (baseline)', path.resolve(baseline, 'dist/server.js')]] : []),
    ] as [string, string | undefined][]) {
      const server = await h.startServer({}, script ? { serverScript: script } : {});
      servers.push(server);
      builds.push({ label, pairs: await pairsOf(h, server) });
    }
    return await measurePairs(h, builds);
  } finally {
    // The servers are child processes: left running, they keep `npm run bench` from ending.
    for (const server of servers) await server.close();
  }
}

async function pairsOf(h: BenchHarness, server: BenchServer): Promise<Target[][]> {
  await h.seedPeople(server, 1000);
  const { url } = server;
  const authorization = server.authHeader;
  const person = await server.ctx.db
    .selectFrom('people')
    .select(['id', 'first_name', 'last_name'])
    .where('account_id', '=', server.accountId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const sessionId = await openSession(url, authorization);
  const mcpHeaders = { ...MCP_HEADERS, authorization, 'mcp-session-id': sessionId };
  const rest = { authorization, 'content-type': 'application/json' };
  // A name as an agent types it ("Person 0"): long enough for the search index, one match. A
  // one-character text makes both sides scan every person, hiding what the tool itself costs.
  const query = `${person.first_name} ${person.last_name}`;
  const fields = 'name,stage,emails,phones,tags,assignedTo,lastActivity';
  const note = { personId: person.id, body: 'Called about the open house' };
  // The protocol's framing alone: a ping in the session (HTTP, credentials, the session, JSON-RPC
  // and the event-stream answer) beside a REST request that does nearly nothing.
  const ping = () => ({ body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'ping' }) });
  const pairs = [
    [
      { name: 'REST GET /livez', url, path: '/livez', headers: rest },
      {
        name: 'MCP ping',
        url,
        path: '/mcp',
        method: 'POST' as const,
        headers: mcpHeaders,
        vary: ping,
      },
    ],
    [
      {
        name: `REST GET /v1/people?q=${encodeURIComponent(query)}&fields=…`,
        url,
        path: `/v1/people?q=${encodeURIComponent(query)}&fields=${fields}&limit=10`,
        headers: rest,
      },
      {
        name: 'MCP search_people',
        url,
        path: '/mcp',
        method: 'POST' as const,
        headers: mcpHeaders,
        vary: toolCall('search_people', { query }),
      },
    ],
    [
      {
        name: 'REST POST /v1/notes',
        url,
        path: '/v1/notes',
        method: 'POST' as const,
        headers: rest,
        body: JSON.stringify(note),
      },
      {
        name: 'MCP add_note',
        url,
        path: '/mcp',
        method: 'POST' as const,
        headers: mcpHeaders,
        vary: toolCall('add_note', note),
      },
    ],
    // A tool whose own work is next to nothing (the bench account has no smart lists): what the
    // SDK's tools/call path and runTool add beyond a ping.
    [
      { name: 'REST GET /v1/smartLists', url, path: '/v1/smartLists', headers: rest },
      {
        name: 'MCP list_smart_lists',
        url,
        path: '/mcp',
        method: 'POST' as const,
        headers: mcpHeaders,
        vary: toolCall('list_smart_lists', {}),
      },
    ],
    [
      {
        name: 'REST GET /v1/reports/agentActivity',
        url,
        path: '/v1/reports/agentActivity',
        headers: rest,
      },
      {
        name: 'MCP run_report agentActivity',
        url,
        path: '/mcp',
        method: 'POST' as const,
        headers: mcpHeaders,
        vary: toolCall('run_report', { report: 'agentActivity' }),
      },
    ],
  ];
  return pairs;
}

/**
 * Each chosen pair, on each build, every round (the pairs interleaved, so that the framing and each
 * tool are measured under the same load); then the medians and each tool's excess.
 */
async function measurePairs(h: BenchHarness, builds: Build[]): Promise<BenchRow[]> {
  const burst = Math.max(2, Math.round(h.durationSeconds / BENCH_ROUNDS));
  // BENCH_MCP_PAIRS=0,2 measures only those pairs (e.g. to profile one tool); 0 is the framing.
  const chosen = process.env.BENCH_MCP_PAIRS?.split(',').map(Number);
  const pairs = [...builds[0]!.pairs.keys()].filter((p) => !chosen || chosen.includes(p));
  const targetsOf = (p: number) =>
    builds.flatMap((b) => b.pairs[p]!.map((t) => ({ label: b.label, t })));
  const bursts = new Map(pairs.map((p) => [p, targetsOf(p).map((): BenchRow[] => [])]));
  for (let round = 0; round < BENCH_ROUNDS; round++)
    for (const p of pairs)
      for (const [i, { t }] of targetsOf(p).entries())
        bursts.get(p)![i]!.push(
          await h.measure({
            ...t,
            connections: Number(process.env.BENCH_MCP_CONNECTIONS ?? 10),
            durationSeconds: burst,
          }),
        );
  const rows: BenchRow[] = [];
  const framing = new Map<string, number>();
  for (const p of pairs) {
    const targets = targetsOf(p);
    for (let i = 0; i < targets.length; i += 2) {
      const [rest, mcp] = [i, i + 1].map((j) => summary(targets[j]!, bursts.get(p)![j]!));
      const label = targets[i]!.label;
      if (p === 0) framing.set(label, mcp!.cpuUs! - rest!.cpuUs!);
      const excess = mcp!.cpuUs! - rest!.cpuUs! - (framing.get(label) ?? NaN);
      if (p !== 0 && Number.isFinite(excess))
        mcp!.note = `MCP − REST − framing: ${Math.round(excess)} µs`;
      if (p === 0) mcp!.note = `framing: ${Math.round(framing.get(label)!)} µs`;
      rows.push(rest!, mcp!);
    }
  }
  return rows;
}

function summary({ label, t }: { label: string; t: Target }, runs: BenchRow[]): BenchRow {
  return {
    ...runs[0]!,
    name: `${t.name}${label}`,
    rate: median(runs.map((r) => r.rate)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs ?? 0)),
  };
}
