// Webhook delivery: events committed at a steady rate to webhooks whose receivers (local HTTPS
// servers) answer after 20 ms. Reports deliveries per second from the first commit to the last
// acknowledged delivery, p50/p99 from each event's commit to its acknowledged delivery, and the
// server's CPU time per delivery; medians of BENCH_ROUNDS (3) rounds. Rows: one endpoint, and
// 100 endpoints at once, on SQLite and PostgreSQL (BENCH_DELIVERY_DB=sqlite,postgres; PostgreSQL
// gets a scratch database on BENCH_PG_URL's server).
// BENCH_DELIVERY_BASELINE=<dir of another checkout, built> runs that build's server too, round by
// round in turn with this one, as the same-run baseline (e.g. the commit before a change).
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createSystem } from '../src/accounts/accounts.service.js';
import { type BenchHarness, type BenchRow, type BenchServer, median, processCpuUs } from './lib.js';
import { emit } from '../src/accounts/webhooks/outbox.js';
import { isoSeconds } from '../src/platform/time.js';
import { type Receiver, startReceiver, testCa } from '../test/accounts/webhooks/receiver.js';

const ANSWER_MS = Number(process.env.BENCH_WEBHOOK_ANSWER_MS ?? 20);
const SCALE = Number(process.env.BENCH_WEBHOOK_SCALE ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WAIT_MS = Number(process.env.BENCH_WEBHOOK_WAIT_MS ?? 120_000);
const DATABASES = (process.env.BENCH_DELIVERY_DB ?? 'sqlite,postgres').split(',');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BASELINE = process.env.BENCH_DELIVERY_BASELINE;

interface Scenario {
  name: string;
  endpoints: number;
  events: number;
  /** events committed per second (each is delivered to every endpoint) */
  rate: number;
}

const SCENARIOS: Scenario[] = [
  { name: '1 endpoint', endpoints: 1, events: 5000, rate: 1250 },
  { name: '100 endpoints', endpoints: 100, events: 40, rate: 20 },
];

interface Round {
  rate: number;
  p50: number;
  p99: number;
  cpuUs: number;
  /** CPU of this process (change generator and receivers) per delivery, in µs: it shares the cores */
  benchCpuUs: number;
  received: number;
  expected: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function register(server: BenchServer, receivers: Receiver[]): Promise<void> {
  // At most 2 webhooks per event per system (interface rule): a system for every two endpoints.
  for (let i = 0; i < receivers.length; i += 2) {
    const created = i === 0 ? null : await createSystem(server.ctx.db, `Bench-${Date.now()}-${i}`);
    const systemName = created ? created.system : server.system.name;
    const systemKey = created ? created.systemKey : server.system.key;
    for (const receiver of receivers.slice(i, i + 2)) {
      const res = await fetch(`${server.url}/v1/webhooks`, {
        method: 'POST',
        headers: {
          authorization: server.authHeader,
          'content-type': 'application/json',
          'x-system': systemName,
          'x-system-key': systemKey,
        },
        body: JSON.stringify({ event: 'notesCreated', url: receiver.url }),
      });
      if (res.status !== 201)
        throw new Error(`webhook registration failed: ${res.status} ${await res.text()}`);
    }
  }
}

/** A fresh database for one round: a temp SQLite file (the harness's), or a scratch PostgreSQL database. */
async function database(
  kind: string,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (kind !== 'postgres') return { env: {}, drop: async () => {} };
  const name = `hearth_delivery_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const openWriters: Database.Database[] = [];
function closeChangeWriters(): void {
  for (const w of openWriters.splice(0)) w.close();
}

/**
 * Commits a tick's changes, each an outbox row as `emit` writes it. On PostgreSQL through `emit`.
 * On SQLite this second process is a second writer of the file (the server would emit on its own
 * connection): its transaction runs synchronously from BEGIN IMMEDIATE to COMMIT, so it holds the
 * write lock for microseconds, never across a turn of this process's event loop, where the
 * receivers' requests would keep it held while the worker's BEGIN IMMEDIATE sleeps in SQLite's
 * busy handler (a cost of the bench, not of delivery).
 */
function changeWriter(server: BenchServer, kind: string): (ids: number[]) => Promise<void> {
  if (kind === 'postgres')
    return (ids) =>
      server.ctx.db.transaction().execute(async (trx) => {
        for (const id of ids) await emit(trx, server.accountId, 'notesCreated', [id]);
      });
  const file = new Database(path.join(server.dataDir, 'hearth.db'));
  openWriters.push(file);
  file.pragma('busy_timeout = 5000');
  const insert = file.prepare(
    `insert into outbox (account_id, event, resource_ids, data, created_at, dispatched_at)
     values (?, 'notesCreated', ?, null, ?, null)`,
  );
  const commit = file.transaction((ids: number[]) => {
    for (const id of ids)
      insert.run(server.accountId, JSON.stringify([id]), isoSeconds(Date.now()));
  });
  return async (ids) => commit.immediate(ids);
}

async function round(
  h: BenchHarness,
  ca: string,
  scenario: Scenario,
  kind: string,
  serverScript: string | undefined,
): Promise<Round> {
  const events = Math.max(1, Math.round(scenario.events * SCALE));
  const db = await database(kind);
  const server = await h.startServer(
    { ...db.env, HEARTH_WEBHOOK_ALLOW_PRIVATE: '1', HEARTH_WEBHOOK_CA: ca },
    { serverScript },
  );
  const receivers = await Promise.all(
    Array.from({ length: scenario.endpoints }, () => startReceiver()),
  );
  for (const receiver of receivers)
    receiver.respond((_r, res) => setTimeout(() => res.writeHead(200).end(), ANSWER_MS));
  try {
    await register(server, receivers);
    const cpuBefore = processCpuUs(server.pid);
    const benchCpuBefore = process.cpuUsage();
    const committed = new Map<number, number>();
    const started = Date.now();
    const perTick = Math.max(1, Math.round(scenario.rate / 100));
    // Each 10 ms tick's changes commit in one transaction (one outbox row per change), as the
    // server's own group commit would commit them (see changeWriter).
    const commitChanges = changeWriter(server, kind);
    for (let id = 1; id <= events;) {
      const tick: number[] = [];
      for (let k = 0; k < perTick && id <= events; k++, id++) tick.push(id);
      await commitChanges(tick);
      const at = Date.now();
      for (const change of tick) committed.set(change, at);
      const wait = started + ((id - 1) / scenario.rate) * 1000 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    // A design that falls behind is measured on what it delivered within BENCH_WEBHOOK_WAIT_MS.
    await Promise.all(receivers.map((r) => r.waitFor(events, WAIT_MS).catch(() => {})));
    const cpuAfter = processCpuUs(server.pid);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const received = receivers.flatMap((r) => r.received);
    const latencies = received
      .map((r) => r.at - committed.get(r.json.resourceIds[0] as number)!)
      .sort((a, b) => a - b);
    const seconds = (Math.max(...received.map((r) => r.at)) - started) / 1000;
    return {
      rate: received.length / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      cpuUs: (cpuAfter - cpuBefore) / Math.max(1, received.length),
      benchCpuUs: (benchCpu.user + benchCpu.system) / Math.max(1, received.length),
      received: received.length,
      expected: events * scenario.endpoints,
    };
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
    closeChangeWriters();
    await server.close();
    await db.drop();
  }
}

function row(label: string, scenario: Scenario, kind: string, rounds: Round[]): BenchRow {
  const events = Math.max(1, Math.round(scenario.events * SCALE));
  const short = rounds.filter((r) => r.received < r.expected);
  const db = kind === 'postgres' ? 'PostgreSQL' : 'SQLite';
  return {
    name: `webhooks ${db}: ${label}, ${scenario.name}, ${events.toLocaleString('en-US')} events at ${scenario.rate}/s, receiver answers in ${ANSWER_MS} ms`,
    rate: median(rounds.map((r) => r.rate)),
    unit: 'deliveries/s',
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    worstP99: Math.max(...rounds.map((r) => r.p99)),
    cpuUs: median(rounds.map((r) => r.cpuUs)),
    note:
      `${rounds[0].expected.toLocaleString('en-US')} deliveries, medians of ${rounds.length}; ` +
      `bench process (changes, receivers) ${Math.round(median(rounds.map((r) => r.benchCpuUs)))} µs CPU/delivery` +
      (short.length
        ? `; ${short.length} round(s) short: ${short.map((r) => r.received).join(', ')} delivered within ${WAIT_MS / 1000} s`
        : ''),
  };
}

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const ca = await testCa();
  const only = process.env.BENCH_WEBHOOK_SCENARIO;
  const rows: BenchRow[] = [];
  const designs: [string, string | undefined][] = [
    ...(BASELINE
      ? [['baseline', path.resolve(BASELINE, 'dist/server.js')] as [string, string]]
      : []),
    ['this build', undefined],
  ];
  for (const kind of DATABASES)
    for (const scenario of SCENARIOS) {
      if (only && !scenario.name.includes(only)) continue;
      const rounds = designs.map(() => [] as Round[]);
      for (let i = 0; i < ROUNDS; i++)
        for (const [d, [label, script]] of designs.entries()) {
          process.stderr.write(`${kind}, ${scenario.name}, ${label}, round ${i + 1}\n`);
          rounds[d].push(await round(h, ca.file, scenario, kind, script));
        }
      designs.forEach(([label], d) => rows.push(row(label, scenario, kind, rounds[d])));
    }
  return rows;
}
