import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/app/bootstrap.js';
import type { AppContext } from '../src/platform/context.js';
import { createAccount, createSystem } from '../src/accounts/accounts.service.js';
import pg from 'pg';
import pino from 'pino';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BenchRow {
  name: string;
  /** median of the per-second request (or event) rates */
  rate: number;
  unit?: string;
  p50: number;
  p99: number;
  /** the highest p99 of the row's rounds (measureAgainst) */
  worstP99?: number;
  /** rate as a share of the baseline row measured in the same run */
  ratio?: number;
  /** server CPU time (user + system) per completed request, in µs */
  cpuUs?: number;
  /** cpuUs as a multiple of the hello-world baseline's */
  cpuRatio?: number;
  note?: string;
}

export interface BenchServer {
  url: string;
  ownerKey: string;
  accountId: number;
  system: { name: string; key: string };
  /** a context on the same database, for seeding and reading */
  ctx: AppContext;
  dataDir: string;
  authHeader: string;
  /** the server process, for its CPU time and memory (/proc/<pid>) */
  pid: number;
  close(): Promise<void>;
}

export interface MeasureOptions {
  name: string;
  url: string;
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** called for every request: return a new path/body to vary the requests */
  vary?: () => { path?: string; body?: string };
  connections?: number;
  durationSeconds?: number;
  /** seconds of unmeasured load first (default BENCH_WARMUP) */
  warmupSeconds?: number;
}

export interface BenchHarness {
  startServer(env?: Record<string, string>, options?: StartOptions): Promise<BenchServer>;
  measure(options: MeasureOptions): Promise<BenchRow>;
  measureAgainst(
    baseline: MeasureOptions,
    scenario: MeasureOptions,
  ): Promise<{ row: BenchRow; baselines: BenchRow[] }>;
  seedPeople(server: BenchServer, count: number): Promise<void>;
  durationSeconds: number;
}

export const BENCH_DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Unmeasured seconds before each row: JIT and caches settle, so the first row is not the coldest. */
export const BENCH_WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** Rounds a row's time is split into, each with a baseline burst just before it (see measureAgainst). */
export const BENCH_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** The server process behind each bench URL, whose CPU time measure() reads. */
const serverPids = new Map<string, number>();

/** Registers a server process started outside startBenchServer, so its rows report CPU too. */
export function registerServerPid(url: string, pid: number | undefined): void {
  if (pid !== undefined) serverPids.set(url, pid);
}

/** CPU time a process has used so far (utime + stime of /proc/<pid>/stat), in µs. */
export function processCpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / CLOCK_TICKS) * 1e6;
}
const CLOCK_TICKS = Number(process.env.BENCH_CLOCK_TICKS ?? 100);

function basic(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + Number(process.env.BENCH_START_TIMEOUT_MS ?? 30_000);
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error('bench server exited during start-up');
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('bench server did not become healthy');
}

/**
 * Starts Hearth as its own process (as `npm start` would, HEARTH_ROLE=all) on a temp SQLite
 * database, with an account and a registered system, so the load generator in this process does
 * not share an event loop with the server.
 */
export interface StartOptions {
  /** people seeded by seedPeople (Person 0, Person 1…) */
  people?: number;
  /** or any seeding of one's own, done before the server starts (see scale.bench.ts) */
  seed?: (ctx: AppContext, accountId: number) => Promise<void>;
  /** another build's dist/server.js (e.g. the previous commit's, as a same-run baseline) */
  serverScript?: string;
}

export async function startBenchServer(
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-bench-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const fullEnv: Record<string, string> = {
    HEARTH_DATA_DIR: dataDir,
    PORT: String(port),
    DATABASE_URL: `sqlite:${path.join(dataDir, 'hearth.db')}`,
    HEARTH_RATE_LIMITS: 'off',
    HEARTH_LOG_LEVEL: 'warn',
    ...env,
  };
  const config = loadConfig(fullEnv);
  const ctx = await createContext(config, { log: pino({ level: 'warn' }) });
  const created = await createAccount(ctx.db, {
    name: 'Bench Team',
    ownerName: 'Bench Owner',
    ownerEmail: 'owner@bench.test',
  });
  const system = await createSystem(ctx.db, `Bench-${port}`);
  // Seeded before the server starts, as an existing installation would be: the server then opens
  // a database whose planner statistics are current.
  if (options.people) {
    process.stderr.write(`seeding ${options.people} people…\n`);
    await seedPeople({ ctx, accountId: created.account.id }, options.people);
  }
  await options.seed?.(ctx, created.account.id);
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server process;
  // with BENCH_SERVER_STDOUT=1 its stdout is shown (e.g. for --trace-gc).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The compiled server, as `npm start` runs it (`npm run bench` builds first).
  const child = spawn(
    process.execPath,
    [...nodeArgs, options.serverScript ?? path.join(ROOT, 'dist/server.js')],
    {
      env: { ...process.env, ...fullEnv },
      stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  const url = `https://127.0.0.1:${port}`;
  await waitForHealth(url, child);
  registerServerPid(url, child.pid);
  return {
    url,
    ownerKey: created.apiKey,
    accountId: created.account.id,
    system: { name: system.system, key: system.systemKey },
    ctx,
    dataDir,
    authHeader: basic(created.apiKey),
    pid: child.pid!,
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await ctx.db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Bulk-loads people (with an email and a phone each) straight into the database. */
export async function seedPeople(
  server: Pick<BenchServer, 'ctx' | 'accountId'>,
  count: number,
): Promise<void> {
  const { db } = server.ctx;
  const stage = await db
    .selectFrom('stages')
    .select('id')
    .where('account_id', '=', server.accountId)
    .where('name', '=', 'Lead')
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const batch = 500;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += batch) {
      const rows = [];
      for (let i = start; i < Math.min(count, start + batch); i++) {
        rows.push({
          account_id: server.accountId,
          created_at: at,
          updated_at: at,
          created_via: 'Import',
          name: `Person ${i}`,
          first_name: 'Person',
          last_name: String(i),
          stage_id: stage.id,
          source: 'bench.test',
          source_url: '',
          background: '',
          contacted: 0,
          addresses: '[]',
          tags: '[]',
          collaborators: '[]',
          custom: '{}',
          emails: JSON.stringify([
            { value: `person${i}@bench.test`, type: 'home', status: 'Valid', isPrimary: true },
          ]),
          phones: JSON.stringify([
            {
              value: `555${String(i).padStart(7, '0')}`,
              type: 'mobile',
              status: 'Valid',
              isPrimary: true,
              normalized: `555${String(i).padStart(7, '0')}`,
            },
          ]),
        });
      }
      const ids = await trx.insertInto('people').values(rows).returning('id').execute();
      await trx
        .insertInto('person_emails')
        .values(
          ids.map((r, k) => ({
            account_id: server.accountId,
            person_id: r.id,
            email: `person${start + k}@bench.test`,
          })),
        )
        .execute();
      await trx
        .insertInto('person_phones')
        .values(
          ids.map((r, k) => ({
            account_id: server.accountId,
            person_id: r.id,
            normalized: `555${String(start + k).padStart(7, '0')}`,
          })),
        )
        .execute();
    }
  });
  // As after any bulk import: refresh the planner's statistics (the server re-reads them).
  await sql`analyze`.execute(db);
  // …and fold the bulk load into the database file, as SQLite's automatic checkpoints would over time.
  if (server.ctx.dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
}

/**
 * Waits (up to 10 s) until the server has finished what earlier bursts left it (the worker's jobs
 * after a burst of writes, a checkpoint): its CPU over 200 ms below 5 % of a core. Otherwise that
 * work is charged to whichever burst comes next.
 */
async function settled(pid: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const before = processCpuUs(pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (processCpuUs(pid) - before < 10_000) return;
  }
}

/** Runs autocannon against one route and reports median req/s and p50/p99 latency in ms. */
export async function measure(options: MeasureOptions): Promise<BenchRow> {
  const headers = { 'content-type': 'application/json', ...options.headers };
  const pid = serverPids.get(options.url);
  let cpuBefore = 0;
  if (pid !== undefined) await settled(pid);
  const started = autocannon({
    url: options.url,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? BENCH_DURATION,
    ...((options.warmupSeconds ?? BENCH_WARMUP) > 0
      ? {
          warmup: {
            connections: options.connections ?? 50,
            duration: options.warmupSeconds ?? BENCH_WARMUP,
          },
        }
      : {}),
    tlsOptions: { rejectUnauthorized: false },
    requests: [
      {
        method: options.method ?? 'GET',
        path: options.path,
        headers,
        body: options.body,
        ...(options.vary
          ? { setupRequest: (req: Record<string, unknown>) => ({ ...req, ...options.vary!() }) }
          : {}),
      },
    ],
  } as autocannon.Options);
  // The warm-up is not measured: CPU is read from when the measured part begins.
  if (pid !== undefined) {
    cpuBefore = processCpuUs(pid);
    // 'start' fires when the warm-up begins and again when the measured part does.
    (started as unknown as autocannon.Instance).on('start', () => (cpuBefore = processCpuUs(pid)));
  }
  const result = await started;
  const cpuUs =
    pid !== undefined && result.requests.total > 0
      ? (processCpuUs(pid) - cpuBefore) / result.requests.total
      : undefined;
  const non2xx = result.non2xx;
  return {
    name: options.name,
    rate: result.requests.p50,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs,
    note:
      non2xx > 0 ? `${non2xx} non-2xx` : result.errors > 0 ? `${result.errors} errors` : undefined,
  };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * This machine's speed drifts by 2x within minutes (shared cores), so a ratio between a baseline
 * measured once and a row measured minutes later says more about the drift than about the route.
 * Here the row's time is split into BENCH_ROUNDS rounds, each a baseline burst and then a scenario
 * burst; the ratio is the median of the per-round ratios. Rate, p50 and p99 are medians over the
 * rounds; the worst round's p99 is shown beside them, since one stall of the machine decides it.
 */
export async function measureAgainst(
  baseline: MeasureOptions,
  scenario: MeasureOptions,
): Promise<{ row: BenchRow; baselines: BenchRow[] }> {
  const burst = Math.max(
    2,
    Math.round((scenario.durationSeconds ?? BENCH_DURATION) / BENCH_ROUNDS),
  );
  const baselines: BenchRow[] = [];
  const bursts: BenchRow[] = [];
  for (let round = 0; round < BENCH_ROUNDS; round++) {
    const warmupSeconds = round === 0 ? undefined : 0;
    baselines.push(await measure({ ...baseline, durationSeconds: burst, warmupSeconds }));
    bursts.push(await measure({ ...scenario, durationSeconds: burst, warmupSeconds }));
  }
  const notes = bursts.map((b) => b.note).filter(Boolean);
  return {
    baselines,
    row: {
      name: scenario.name,
      rate: median(bursts.map((b) => b.rate)),
      p50: median(bursts.map((b) => b.p50)),
      p99: median(bursts.map((b) => b.p99)),
      worstP99: Math.max(...bursts.map((b) => b.p99)),
      ratio: median(bursts.map((b, i) => b.rate / baselines[i].rate)),
      ...cpuOfRounds(bursts, baselines),
      note: notes.length ? notes.join('; ') : undefined,
    },
  };
}

/** Median CPU per request of a row's rounds, and the median of its per-round ratios to the baseline. */
function cpuOfRounds(
  bursts: BenchRow[],
  baselines: BenchRow[],
): Pick<BenchRow, 'cpuUs' | 'cpuRatio'> {
  const rounds = bursts
    .map((b, i) => ({ cpu: b.cpuUs, base: baselines[i]?.cpuUs }))
    .filter((r): r is { cpu: number; base: number } => r.cpu !== undefined && r.base !== undefined);
  if (rounds.length === 0) return {};
  return {
    cpuUs: median(rounds.map((r) => r.cpu)),
    cpuRatio: median(rounds.map((r) => (r.base > 0 ? r.cpu / r.base : NaN))),
  };
}

/** The baseline row of a table: the median of the bursts measured beside the rows. */
export function baselineRow(name: string, bursts: BenchRow[]): BenchRow {
  return {
    name,
    rate: median(bursts.map((b) => b.rate)),
    p50: median(bursts.map((b) => b.p50)),
    p99: median(bursts.map((b) => b.p99)),
    worstP99: Math.max(...bursts.map((b) => b.p99)),
    ratio: 1,
    ...(bursts.every((b) => b.cpuUs !== undefined)
      ? { cpuUs: median(bursts.map((b) => b.cpuUs!)), cpuRatio: 1 }
      : {}),
  };
}

export const harness: BenchHarness = {
  startServer: startBenchServer,
  measure,
  measureAgainst,
  seedPeople,
  durationSeconds: BENCH_DURATION,
};

export function printTable(rows: BenchRow[], baseline: BenchRow): void {
  const withRatio = rows.map((r) => ({
    ...r,
    ratio: r.ratio ?? (r.unit ? undefined : r.rate / baseline.rate),
    cpuRatio:
      r.cpuRatio ??
      (r.cpuUs !== undefined && baseline.cpuUs ? r.cpuUs / baseline.cpuUs : undefined),
  }));
  const header = [
    'scenario',
    'rate (median)',
    'p50 ms',
    'p99 ms',
    'worst round p99',
    'ratio to baseline',
    'CPU µs/req',
    'CPU ratio',
    'note',
  ];
  const lines = withRatio.map((r) => [
    r.name,
    `${Math.round(r.rate).toLocaleString('en-US')} ${r.unit ?? 'req/s'}`,
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    r.worstP99 === undefined ? '' : r.worstP99.toFixed(1),
    r.ratio === undefined ? '' : `${(r.ratio * 100).toFixed(0)}%`,
    r.cpuUs === undefined ? '' : Math.round(r.cpuUs).toLocaleString('en-US'),
    r.cpuRatio === undefined || Number.isNaN(r.cpuRatio) ? '' : `${r.cpuRatio.toFixed(2)}x`,
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(fmt(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(fmt(l));
}

export { basic };

/**
 * Lead event bodies for POST /v1/events, alternately a new person (`<prefix><pid>-<n>@bench.test`)
 * and a returning one of the `people` seeded by seedPeople.
 */
export function leadEvents(people: number, prefix: string): () => string {
  let n = 0;
  return () => {
    n += 1;
    const returning = n % 2 === 0;
    const email = returning
      ? `person${Math.floor(Math.random() * people)}@bench.test`
      : `${prefix}${process.pid}-${n}@bench.test`;
    return JSON.stringify({
      type: returning ? 'Viewed Property' : 'Registration',
      source: 'www.bench-homes.test',
      person: { firstName: 'Bench', lastName: `Lead ${n}`, emails: [{ value: email }] },
    });
  };
}

/**
 * A scratch PostgreSQL database for one bench setting, created through the admin URL
 * (BENCH_PG_URL); `drop` removes it, connections and all.
 */
export async function scratchPostgres(
  adminUrl: string,
  name: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
