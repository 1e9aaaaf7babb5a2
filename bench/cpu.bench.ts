// `npm run bench -- cpu`: server CPU time per request (utime + stime of the server process over a
// burst, divided by the requests it answered) for Hearth's hot requests, against the same-stack
// minimum (cpu-minimum.ts) and against other built checkouts (BENCH_CPU_BASELINE=<dir>[,<dir>…],
// each with dist/ built). Every server is seeded with BENCH_CPU_PEOPLE people (1,000) and loaded
// with BENCH_CPU_CONNECTIONS (16) over TLS. The machine is shared, so the servers take turns burst
// by burst (rounds interleaved, the order rotating each round) and each cell is a median of rounds.
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_ROUNDS, type BenchHarness, type BenchRow, median } from './lib.js';
import { seedPerson, searchText } from './cpu-people.js';
import { type CpuTarget, startHearth, startMinimum } from './cpu-targets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PEOPLE = Number(process.env.BENCH_CPU_PEOPLE ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CPU_CONNECTIONS ?? 16);
const BURST_SECONDS = Number(process.env.BENCH_CPU_BURST ?? 3);
// BENCH_CPU_ONLY=<text>: only the requests whose name contains it (e.g. to profile one of them).
// Beside this build runs the same build with HEARTH_DB_SHORTCUTS=compiled ("shortcuts=compiled": no
// remembered list reads, no group commit), unless BENCH_CPU_UNREMEMBERED=0.
const ONLY = process.env.BENCH_CPU_ONLY;

interface Request {
  name: string;
  method: 'GET' | 'POST';
  /** the request for one target, or null when that target has no such request */
  build(target: CpuTarget): { headers: Record<string, string>; vary: () => Vary } | null;
}
type Vary = { path: string; body?: string };

const pick = (t: CpuTarget) => t.personIds[Math.floor(Math.random() * t.personIds.length)];
let posted = 0;
const api = (vary: (t: CpuTarget) => () => Vary) => (t: CpuTarget) => ({
  headers: t.apiHeaders,
  vary: vary(t),
});

const REQUESTS: Request[] = [
  {
    name: 'GET /v1/people/:id',
    method: 'GET',
    build: api((t) => () => ({ path: `/v1/people/${pick(t)}` })),
  },
  {
    name: 'GET /v1/people/:id (web app: cookie)',
    method: 'GET',
    build: (t) =>
      t.cookieHeaders && {
        headers: t.cookieHeaders,
        vary: () => ({ path: `/v1/people/${pick(t)}` }),
      },
  },
  {
    name: 'GET /v1/people?limit=100',
    method: 'GET',
    build: api(() => () => ({ path: '/v1/people?limit=100' })),
  },
  {
    name: 'GET /v1/people?q=…&limit=100',
    method: 'GET',
    build: api(() => () => ({ path: `/v1/people?limit=100&q=${searchText()}` })),
  },
  {
    name: 'POST /v1/people',
    method: 'POST',
    build: api(() => () => {
      const n = ++posted;
      const body = { ...seedPerson(n), emails: [{ value: `new${process.pid}-${n}@bench.test` }] };
      return { path: '/v1/people', body: JSON.stringify(body) };
    }),
  },
  {
    name: 'POST /v1/events (half new)',
    method: 'POST',
    build: api(() => () => {
      const n = ++posted;
      const returning = n % 2 === 0;
      const email = returning
        ? `person${Math.floor(Math.random() * PEOPLE)}@bench.test`
        : `lead${process.pid}-${n}@bench.test`;
      const body = {
        type: returning ? 'Viewed Property' : 'Registration',
        source: 'www.bench-homes.test',
        person: { firstName: 'Bench', lastName: `Lead ${n}`, emails: [{ value: email }] },
      };
      return { path: '/v1/events', body: JSON.stringify(body) };
    }),
  },
];

const CHOSEN = ONLY ? REQUESTS.filter((r) => r.name.includes(ONLY)) : REQUESTS;

async function startTargets(): Promise<CpuTarget[]> {
  const targets: CpuTarget[] = [];
  try {
    const baselines = (process.env.BENCH_CPU_BASELINE ?? '').split(',').filter(Boolean);
    for (const dir of baselines)
      targets.push(
        await startHearth(
          path.basename(dir),
          path.join(path.resolve(dir), 'dist/server.js'),
          PEOPLE,
        ),
      );
    const server = path.join(ROOT, 'dist/server.js');
    // What a list costs when it is not remembered (the first request after any content change).
    if (process.env.BENCH_CPU_UNREMEMBERED !== '0')
      targets.push(
        await startHearth('shortcuts=compiled', server, PEOPLE, {
          HEARTH_DB_SHORTCUTS: 'compiled',
        }),
      );
    targets.push(await startHearth('this build', server, PEOPLE));
    targets.unshift(await startMinimum(targets[0].dataDir, PEOPLE));
    return targets;
  } catch (err) {
    for (const t of targets) await t.close();
    throw err;
  }
}

/** rows[request][target]: the bursts measured. */
type Bursts = Map<string, Map<string, BenchRow[]>>;

async function measureRounds(h: BenchHarness, targets: CpuTarget[]): Promise<Bursts> {
  const bursts: Bursts = new Map(CHOSEN.map((r) => [r.name, new Map()]));
  for (let round = 0; round < BENCH_ROUNDS; round++) {
    for (const request of CHOSEN) {
      // Rotated each round: no server always runs right after the same one.
      const order = targets.map((_, i) => targets[(i + round) % targets.length]);
      for (const target of order) {
        const built = request.build(target);
        if (!built) continue;
        const row = await h.measure({
          name: request.name,
          url: target.url,
          method: request.method,
          path: built.vary().path,
          headers: built.headers,
          vary: built.vary,
          connections: CONNECTIONS,
          durationSeconds: BURST_SECONDS,
          warmupSeconds: round === 0 ? undefined : 0,
        });
        const cell = bursts.get(request.name)!;
        cell.set(target.name, [...(cell.get(target.name) ?? []), row]);
        process.stderr.write(
          `round ${round + 1} ${request.name} ${target.name}: ${Math.round(row.cpuUs ?? 0)} µs${row.note ? ` (${row.note})` : ''}\n`,
        );
      }
    }
  }
  return bursts;
}

const us = (v: number | undefined) =>
  v === undefined ? 'n/a' : Math.round(v).toLocaleString('en-US');
const pct = (v: number | undefined) => (v === undefined ? 'n/a' : `${Math.round(v * 100)} %`);

function printCpuTable(targets: CpuTarget[], bursts: Bursts): void {
  const hearths = targets.filter((t) => t.name !== 'minimum');
  const current = hearths[hearths.length - 1].name;
  const header = [
    'request',
    ...targets.map((t) => `${t.name} µs`),
    ...hearths.slice(0, -1).map((t) => `vs ${t.name}`),
    'minimum / this',
    ...targets.map((t) => `${t.name} req/s`),
    ...targets.map((t) => `${t.name} p99 ms`),
    'notes',
  ];
  const lines = CHOSEN.map((request) => {
    const cell = bursts.get(request.name)!;
    const stat = (name: string, f: (b: BenchRow) => number | undefined) => {
      const values = (cell.get(name) ?? []).map(f).filter((v): v is number => v !== undefined);
      return values.length ? median(values) : undefined;
    };
    const cpu = (name: string) => stat(name, (b) => b.cpuUs);
    const ratio = (a?: number, b?: number) => (a !== undefined && b ? a / b : undefined);
    const mine = cpu(current);
    const notes = [...cell.entries()].flatMap(([name, rows]) =>
      rows.filter((r) => r.note).map((r) => `${name}: ${r.note}`),
    );
    return [
      request.name,
      ...targets.map((t) => us(cpu(t.name))),
      ...hearths.slice(0, -1).map((t) => {
        const change = ratio(mine, cpu(t.name));
        return change === undefined ? 'n/a' : `${change >= 1 ? '+' : ''}${pct(change - 1)}`;
      }),
      pct(ratio(cpu('minimum'), mine)),
      ...targets.map((t) => us(stat(t.name, (b) => b.rate))),
      ...targets.map((t) => stat(t.name, (b) => b.p99)?.toFixed(1) ?? 'n/a'),
      [...new Set(notes)].join('; '),
    ];
  });
  const fmt = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    `\nServer CPU per request, medians of ${BENCH_ROUNDS} interleaved rounds of ${BURST_SECONDS} s; ` +
      `${CONNECTIONS} connections, TLS, ${PEOPLE} people; ${new Date().toISOString()}, ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
  );
  console.log(fmt(header));
  console.log(fmt(header.map(() => '---')));
  for (const line of lines) console.log(fmt(line));
}

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const targets = await startTargets();
  try {
    printCpuTable(targets, await measureRounds(h, targets));
  } finally {
    for (const t of targets) await t.close();
  }
  return [];
}
