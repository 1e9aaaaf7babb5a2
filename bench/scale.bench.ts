// `npm run bench -- scale` (issue 19): GET /v1/people at 100,000 and 1,000,000 realistic people
// (scale-seed.ts), on SQLite and PostgreSQL. Each row: a single client's latency (median and p95
// over BENCH_SCALE_SAMPLES uncached requests), and for the heavy rows 16 connections for
// BENCH_SCALE_LOAD_SECONDS, with a /livez probe running beside every measurement.
// BENCH_SCALE_PEOPLE (100000,1000000), BENCH_SCALE_DB (sqlite,postgres) and BENCH_PG_URL (an
// admin URL; a scratch database is created and dropped) choose what runs; BENCH_SCALE_ROWS
// ("name=son|POST") keeps only the rows whose names hold one of its parts. The server gets the
// bench's environment, so e.g. HEARTH_LIST_CONCURRENCY=1 reaches it.
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { createUser } from '../src/accounts/accounts.service.js';
import type { AppContext } from '../src/platform/context.js';
import {
  type BenchHarness,
  type BenchRow,
  type BenchServer,
  median,
  processCpuUs,
  scratchPostgres,
} from './lib.js';
import { RARE_LAST_NAME, type SeedResult, seedScalePeople } from './scale-seed.js';

const SIZES = (process.env.BENCH_SCALE_PEOPLE ?? '100000,1000000').split(',').map(Number);
const DATABASES = (process.env.BENCH_SCALE_DB ?? 'sqlite,postgres').split(',');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES ?? 25);
const LOAD_SECONDS = Number(process.env.BENCH_SCALE_LOAD_SECONDS ?? 4);
/** BENCH_SCALE_ROWS: only the rows whose names hold one of these |-separated parts */
const ROWS = process.env.BENCH_SCALE_ROWS?.split('|').filter(Boolean);
const CONNECTIONS = 16;

interface Case {
  name: string;
  /** a new path per request, so no answer is a cached one */
  path: () => string;
  /** also measured with 16 connections */
  loaded?: boolean;
  method?: 'POST';
  body?: () => string;
}

interface Setting {
  label: string;
  single: Map<string, { p50: number; p95: number; cpuMs: number; status: string }>;
  loaded: Map<string, BenchRow & { livezP99: number }>;
  seed: SeedResult;
  /** POST /v1/events alone, then beside 16 connections of the slowest loaded row */
  events?: { alone: BenchRow; beside: BenchRow & { livezP99: number }; slowest: string };
  /** the 1-minute load average of the machine when the setting began and ended */
  load: [number, number];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** GETs /livez every 20 ms until stopped; resolves to the latencies seen. */
function livezProbe(url: string) {
  let running = true;
  const latencies: number[] = [];
  const done = (async () => {
    while (running) {
      const began = performance.now();
      await fetch(`${url}/livez`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - began);
      await new Promise((r) => setTimeout(r, 20));
    }
    return latencies;
  })();
  return {
    stop: async () => {
      running = false;
      return done;
    },
  };
}

async function seedFor(ctx: AppContext, accountId: number, people: number, databaseUrl: string) {
  const stages = await ctx.db
    .selectFrom('stages')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .execute();
  const user = (role: 'Agent' | 'Lender', i: number) =>
    createUser(ctx.db, {
      accountId,
      name: `${role} ${i}`,
      email: `${role.toLowerCase()}${i}@bench.test`,
      role,
    }).then((u) => u.user.id);
  const agentIds = await Promise.all(Array.from({ length: 12 }, (_, i) => user('Agent', i)));
  const lenderIds = await Promise.all(Array.from({ length: 3 }, (_, i) => user('Lender', i)));
  const seed = await seedScalePeople(
    {
      databaseUrl,
      accountId,
      stageIds: Object.fromEntries(stages.map((s) => [s.name, s.id])),
      agentIds,
      lenderIds,
      now: Date.now(),
    },
    people,
  );
  const phases = Object.entries(seed.phases)
    .filter(([, spent]) => spent.seconds >= 0.05)
    .map(([phase, spent]) => `${phase} ${spent.seconds.toFixed(1)}`)
    .join(', ');
  process.stderr.write(
    `seeded ${people} people in ${seed.seconds.toFixed(1)} s (${phases}; ${seed.cpuSeconds.toFixed(1)} CPU s here; load ${loadavg()[0].toFixed(1)})\n`,
  );
  return { seed, agentIds };
}

/**
 * The seeded people are what the app would have stored: a sample of them reads back through
 * GET /v1/people/:id as written, and is found by `q=` (email, phone digits) and `tags=`.
 */
async function verifySeed(server: BenchServer, seed: SeedResult) {
  // A 503 (the list's time budget, on a cold cache of a busy machine) is retried and reported:
  // it says nothing about the data.
  const get = async (path: string): Promise<Record<string, unknown>> => {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${server.url}${path}`, {
        headers: { authorization: server.authHeader },
      });
      if (res.ok) return res.json() as Promise<Record<string, unknown>>;
      const text = await res.text();
      if (res.status !== 503 || attempt === 3)
        throw new Error(`seed check: ${path} answered ${res.status} ${text}`);
      process.stderr.write(`seed check: ${path} answered 503 (attempt ${attempt}), retrying\n`);
    }
  };
  const ids = (body: Record<string, unknown>) => (body.people as { id: number }[]).map((p) => p.id);
  for (const sample of seed.samples) {
    const person = await get(`/v1/people/${sample.id}`);
    const expected = {
      name: sample.person.name,
      emails: sample.emails,
      phones: sample.phones,
      tags: sample.tags,
    };
    const actual = {
      name: person.name,
      emails: (person.emails as { value: string }[]).map((e) => e.value),
      phones: (person.phones as { normalized: string }[]).map((p) => p.normalized),
      tags: person.tags,
    };
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      throw new Error(
        `seed check: person ${sample.id} is ${JSON.stringify(actual)}, seeded ${JSON.stringify(expected)}`,
      );
    const searches = [
      `q=${encodeURIComponent(sample.emails[0])}`,
      `q=${sample.phones[0]}&lastName=${encodeURIComponent(String(sample.person.last_name))}`,
      ...sample.tags.map((tag) => `q=${encodeURIComponent(sample.emails[0])}&tags=${tag}`),
    ];
    for (const search of searches) {
      const found = ids(await get(`/v1/people?includeTrash=true&${search}`));
      if (!found.includes(sample.id))
        throw new Error(`seed check: ?${search} did not find person ${sample.id}`);
    }
  }
  process.stderr.write(`seed check: ${seed.samples.length} people read back and found\n`);
}

function cases(server: BenchServer, people: number, agentIds: number[], deepCursor: string) {
  const rnd = (n: number) => Math.floor(Math.random() * n);
  const day = 24 * 3600_000;
  const list = (query: () => string) => () => `/v1/people?limit=100&${query()}`;
  let lead = 0;
  const all: Case[] = [
    { name: '?email=', path: list(() => `email=nobody${rnd(1e9)}@example.com`) },
    { name: '?phone=', path: list(() => `phone=555${rnd(1e7)}`) },
    { name: '`next` page 50,000 deep', path: list(() => `next=${deepCursor}`) },
    { name: '?limit=100 (first page, total)', path: list(() => ''), loaded: true },
    { name: '?name=son (~15%)', path: list(() => 'name=son'), loaded: true },
    {
      name: `?name=${RARE_LAST_NAME.slice(0, 7).toLowerCase()} (0.01%)`,
      path: list(() => 'name=quacken'),
      loaded: true,
    },
    { name: '?q=john (common)', path: list(() => 'q=john') },
    { name: '?q=quackenb (rare)', path: list(() => 'q=quackenb') },
    { name: '?q=212 55 (phone digits)', path: list(() => 'q=212%2055') },
    { name: '?tags=buyer (42%)', path: list(() => 'tags=buyer'), loaded: true },
    { name: '?tags=vip (2%)', path: list(() => 'tags=vip') },
    {
      name: '?assignedUserId=',
      path: list(() => `assignedUserId=${agentIds[rnd(agentIds.length)]}`),
      loaded: true,
    },
    {
      name: '?createdAfter= (90 days)',
      path: list(() => `createdAfter=${new Date(Date.now() - 90 * day - rnd(day)).toISOString()}`),
      loaded: true,
    },
    { name: '?priceAbove=1500000', path: list(() => `priceAbove=${1_500_000 + rnd(1000)}`) },
    { name: '?sort=-lastActivity', path: list(() => 'sort=-lastActivity'), loaded: true },
    { name: '?sort=name', path: list(() => 'sort=name'), loaded: true },
    { name: '?sort=lastName', path: list(() => 'sort=lastName') },
    { name: '?sort=-price', path: list(() => 'sort=-price') },
    { name: '?sort=updated', path: list(() => 'sort=updated') },
    {
      name: '?sort=name&tags=buyer&assignedUserId=',
      path: list(() => `sort=name&tags=buyer&assignedUserId=${agentIds[rnd(agentIds.length)]}`),
    },
    {
      name: 'POST /v1/events',
      method: 'POST',
      path: () => '/v1/events',
      body: () =>
        JSON.stringify({
          type: 'Registration',
          source: 'www.bench-homes.test',
          person: {
            firstName: 'Bench',
            lastName: `Lead ${++lead}`,
            emails: [{ value: `lead${process.pid}-${lead}-${rnd(1e9)}@bench.test` }],
          },
        }),
      loaded: true,
    },
  ];
  void server;
  void people;
  return ROWS ? all.filter((c) => ROWS.some((part) => c.name.includes(part))) : all;
}

/**
 * CPU time (µs) used so far by the server and, on PostgreSQL, by the database's backends: on a
 * busy shared machine a request's CPU time says what it costs when its latency cannot.
 */
async function serverCpuUs(server: BenchServer): Promise<number> {
  let total = processCpuUs(server.pid);
  if (server.ctx.dialect !== 'postgres') return total;
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()`.execute(server.ctx.db);
  for (const { pid } of rows) {
    try {
      total += processCpuUs(pid);
    } catch {
      /* the backend ended meanwhile */
    }
  }
  return total;
}

async function singleClient(server: BenchServer, c: Case) {
  const headers: Record<string, string> = {
    authorization: server.authHeader,
    'content-type': 'application/json',
    'x-system': server.system.name,
    'x-system-key': server.system.key,
  };
  const times: number[] = [];
  const cpu: number[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < SAMPLES + 2; i++) {
    const cpuBefore = await serverCpuUs(server);
    const began = performance.now();
    const res = await fetch(`${server.url}${c.path()}`, {
      method: c.method ?? 'GET',
      headers,
      body: c.body?.(),
    });
    await res.arrayBuffer();
    if (i >= 2) {
      // two warm-up requests
      times.push(performance.now() - began);
      cpu.push((await serverCpuUs(server)) - cpuBefore);
    }
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    // A live CRM writes all the time: a commit between requests, so no total is remembered
    // (SQLite's count cache lasts until the next commit).
    await fetch(`${server.url}/v1/people`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `Between ${i}`, tags: ['bench-write'] }),
    }).then((r) => r.arrayBuffer());
  }
  const odd = [...statuses].filter(([s]) => s >= 300);
  return {
    p50: median(times),
    p95: percentile(times, 95),
    /** mean server CPU ms per request (CPU time is counted in 10 ms ticks: only a mean is meaningful) */
    cpuMs: cpu.reduce((a, b) => a + b, 0) / cpu.length / 1000,
    status: odd.map(([s, n]) => `${n}×${s}`).join(' '),
  };
}

async function underLoad(h: BenchHarness, server: BenchServer, c: Case) {
  const probe = livezProbe(server.url);
  const row = await h.measure({
    name: c.name,
    url: server.url,
    path: c.path(),
    method: c.method,
    body: c.body?.(),
    headers: {
      authorization: server.authHeader,
      'x-system': server.system.name,
      'x-system-key': server.system.key,
    },
    vary: () => ({ path: c.path(), body: c.body?.() }),
    connections: CONNECTIONS,
    durationSeconds: LOAD_SECONDS,
    warmupSeconds: 1,
  });
  const livez = await probe.stop();
  return { ...row, livezP99: percentile(livez, 99) };
}

/** Connections posting lead events while the slowest row runs (and alone, for the comparison). */
const EVENT_CONNECTIONS = 4;

/**
 * Lead ingestion while 16 connections run the slowest GET row: POST /v1/events with
 * EVENT_CONNECTIONS alone, then beside the row (with the /livez probe), to compare throughput.
 */
async function eventsBesideSlowest(
  h: BenchHarness,
  server: BenchServer,
  all: Case[],
  setting: Setting,
): Promise<Setting['events']> {
  const events = all.find((c) => c.method === 'POST')!;
  const slowest = all
    .filter((c) => c.loaded && !c.method)
    .sort((a, b) => setting.loaded.get(a.name)!.rate - setting.loaded.get(b.name)!.rate)[0];
  const eventsRun = () =>
    h.measure({
      name: events.name,
      url: server.url,
      path: events.path(),
      method: 'POST',
      body: events.body!(),
      headers: {
        authorization: server.authHeader,
        'x-system': server.system.name,
        'x-system-key': server.system.key,
      },
      vary: () => ({ body: events.body!() }),
      connections: EVENT_CONNECTIONS,
      durationSeconds: LOAD_SECONDS,
      warmupSeconds: 1,
    });
  process.stderr.write(`${setting.label}: POST /v1/events alone, then beside ${slowest.name}\n`);
  const alone = await eventsRun();
  const probe = livezProbe(server.url);
  const [beside] = await Promise.all([eventsRun(), underLoad(h, server, slowest)]);
  const livez = await probe.stop();
  return { alone, beside: { ...beside, livezP99: percentile(livez, 99) }, slowest: slowest.name };
}

async function deepCursor(server: BenchServer): Promise<string> {
  const row = await server.ctx.db
    .selectFrom('people')
    .select('id')
    .where('account_id', '=', server.accountId)
    .orderBy('id', 'desc')
    .offset(50_000)
    .limit(1)
    .executeTakeFirst();
  // The cursor a client holds after following nextLink 500 times (pagination.ts's format).
  const cursor = { s: '-id', id: row?.id ?? 1, o: 50_000, t: 0 };
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

async function measureSetting(h: BenchHarness, database: string, people: number): Promise<Setting> {
  const scratch =
    database === 'postgres'
      ? await scratchPostgres(PG_ADMIN_URL, `hearth_bench_scale_${process.pid}`)
      : null;
  const databaseUrl = scratch?.url;
  const loadBefore = loadavg()[0];
  let seeded: { seed: SeedResult; agentIds: number[] } | undefined;
  const server = await h.startServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {}, {
    seed: async (ctx, accountId) => {
      seeded = await seedFor(ctx, accountId, people, databaseUrl ?? ctx.config.databaseUrl);
    },
  });
  const label = `${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${people >= 1e6 ? `${people / 1e6}M` : `${people / 1e3}k`}`;
  const setting: Setting = {
    label,
    single: new Map(),
    loaded: new Map(),
    seed: seeded!.seed,
    load: [loadBefore, NaN],
  };
  try {
    await verifySeed(server, seeded!.seed);
    const all = cases(server, people, seeded!.agentIds, await deepCursor(server));
    for (const c of all) {
      process.stderr.write(`${label}: ${c.name}\n`);
      const result = await singleClient(server, c);
      setting.single.set(c.name, result);
      process.stderr.write(
        `  ${result.p50.toFixed(1)} / ${result.p95.toFixed(1)} ms, CPU ${result.cpuMs.toFixed(1)} ms ${result.status} (load ${loadavg()[0].toFixed(1)})\n`,
      );
    }
    if (LOAD_SECONDS <= 0) return setting; // BENCH_SCALE_LOAD_SECONDS=0: single-client rows only
    setting.loaded.set(
      'GET /livez (hello world)',
      await underLoad(h, server, { name: 'GET /livez', path: () => '/livez' }),
    );
    for (const c of all.filter((c) => c.loaded)) {
      process.stderr.write(`${label}: ${c.name} × ${CONNECTIONS}\n`);
      setting.loaded.set(c.name, await underLoad(h, server, c));
    }
    setting.events = await eventsBesideSlowest(h, server, all, setting);
  } finally {
    setting.load[1] = loadavg()[0];
    await server.close();
    await scratch?.drop();
  }
  return setting;
}

function printTables(settings: Setting[]) {
  const table = (header: string[], lines: string[][]) => {
    const widths = header.map((h, i) =>
      Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)),
    );
    const fmt = (cells: string[]) =>
      `| ${cells.map((c, i) => (c ?? '').padEnd(widths[i])).join(' | ')} |`;
    console.log(fmt(header));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const l of lines) console.log(fmt(l));
    console.log('');
  };
  const names = [...settings[0].single.keys()];
  console.log(
    "Single client, uncached: median / p95 ms; server CPU ms per request (with PostgreSQL's backends)",
  );
  table(
    ['GET /v1/people…', ...settings.map((s) => s.label)],
    names.map((n) => [
      n,
      ...settings.map((s) => {
        const r = s.single.get(n)!;
        return `${r.p50.toFixed(1)} / ${r.p95.toFixed(1)}; CPU ${r.cpuMs.toFixed(1)}${r.status ? ` (${r.status})` : ''}`;
      }),
    ]),
  );
  const loadedNames = [...settings[0].loaded.keys()];
  if (loadedNames.length === 0) return;
  console.log(
    `${CONNECTIONS} connections, ${LOAD_SECONDS} s: req/s, p99 ms, /livez p99 ms beside it, server CPU µs/request (× hello world's)`,
  );
  table(
    ['', ...settings.map((s) => s.label)],
    loadedNames.map((n) => [
      n,
      ...settings.map((s) => {
        const r = s.loaded.get(n)!;
        const hello = s.loaded.get('GET /livez (hello world)')!;
        const cpu =
          r.cpuUs !== undefined && hello.cpuUs
            ? `, ${Math.round(r.cpuUs)} µs (${(r.cpuUs / hello.cpuUs).toFixed(1)}×)`
            : '';
        return `${Math.round(r.rate)}/s, p99 ${r.p99.toFixed(0)}, livez ${r.livezP99.toFixed(0)}${cpu}${r.note ? `, ${r.note}` : ''}`;
      }),
    ]),
  );
  const withEvents = settings.filter((s) => s.events);
  if (withEvents.length) {
    console.log(
      `POST /v1/events (${EVENT_CONNECTIONS} connections) alone and while ${CONNECTIONS} connections run the slowest row`,
    );
    table(
      ['', 'slowest row', 'events alone', 'events beside it', 'kept', '/livez p99 meanwhile'],
      withEvents.map((s) => {
        const e = s.events!;
        return [
          s.label,
          e.slowest,
          `${Math.round(e.alone.rate)}/s`,
          `${Math.round(e.beside.rate)}/s${e.beside.note ? ` (${e.beside.note})` : ''}`,
          `${((100 * e.beside.rate) / e.alone.rate).toFixed(0)}%`,
          `${e.beside.livezP99.toFixed(0)} ms`,
        ];
      }),
    );
  }
  console.log(
    `Seeding: ${settings
      .map(
        (s) =>
          `${s.label} ${s.seed.seconds.toFixed(1)} s (${s.seed.cpuSeconds.toFixed(1)} CPU s in the bench process)`,
      )
      .join(', ')}`,
  );
  console.log(
    `Load average (1 min) at the start / end of each: ${settings
      .map((s) => `${s.label} ${s.load[0].toFixed(1)} / ${s.load[1].toFixed(1)}`)
      .join(', ')}`,
  );
}

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const settings: Setting[] = [];
  for (const database of DATABASES) {
    for (const people of SIZES) settings.push(await measureSetting(h, database, people));
  }
  printTables(settings);
  return [];
}
