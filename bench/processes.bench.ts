// What a second API process on the same SQLite file buys (README: "One API process per SQLite file").
// One server with 50 connections against two processes on one file with 25 connections each, for
// lead events (writes: both processes need SQLite's one write lock) and 100-person pages (reads).
// Rows are medians of BENCH_ROUNDS rounds, the two set-ups measured in turn within each round.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BENCH_ROUNDS,
  type BenchHarness,
  type BenchRow,
  type MeasureOptions,
  leadEvents,
  median,
  waitForHealth,
} from './lib.js';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/server.js');

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const server = await h.startServer({}, { people: PEOPLE });
  const port = 20000 + Math.floor(Math.random() * 20000);
  const second = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      HEARTH_DATA_DIR: server.dataDir,
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(server.dataDir, 'hearth.db')}`,
      HEARTH_RATE_LIMITS: 'off',
      HEARTH_LOG_LEVEL: 'warn',
      HEARTH_ROLE: 'api',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const secondUrl = `https://127.0.0.1:${port}`;
    await waitForHealth(secondUrl, second);
    const headers = {
      authorization: server.authHeader,
      'x-system': server.system.name,
      'x-system-key': server.system.key,
    };
    const lead = leadEvents(PEOPLE, 'split');
    const scenarios: [string, Omit<MeasureOptions, 'name' | 'url'>][] = [
      [
        'POST /v1/events',
        { path: '/v1/events', method: 'POST', headers, vary: () => ({ body: lead() }) },
      ],
      ['GET /v1/people?limit=100', { path: '/v1/people?limit=100', headers }],
    ];
    const burst = Math.max(2, Math.round(h.durationSeconds / BENCH_ROUNDS));
    const rows: BenchRow[] = [];
    for (const [name, scenario] of scenarios) {
      const one: BenchRow[] = [];
      const two: BenchRow[] = [];
      for (let round = 0; round < BENCH_ROUNDS; round++) {
        const warmupSeconds = round === 0 ? undefined : 0;
        one.push(
          await h.measure({
            ...scenario,
            name,
            url: server.url,
            durationSeconds: burst,
            warmupSeconds,
          }),
        );
        const halves = await Promise.all(
          [server.url, secondUrl].map((url) =>
            h.measure({
              ...scenario,
              name,
              url,
              connections: 25,
              durationSeconds: burst,
              warmupSeconds,
            }),
          ),
        );
        two.push({
          name,
          rate: halves[0].rate + halves[1].rate,
          p50: Math.max(halves[0].p50, halves[1].p50),
          p99: Math.max(halves[0].p99, halves[1].p99),
        });
      }
      for (const [label, bursts] of [
        ['one API process', one],
        ['two API processes, one SQLite file', two],
      ] as const) {
        rows.push({
          name: `${name}: ${label}`,
          rate: median(bursts.map((b) => b.rate)),
          p50: median(bursts.map((b) => b.p50)),
          p99: median(bursts.map((b) => b.p99)),
          worstP99: Math.max(...bursts.map((b) => b.p99)),
        });
      }
      const gain = median(two.map((b, i) => b.rate / one[i].rate));
      rows[rows.length - 1].note =
        `${gain.toFixed(2)}× the rate of one process (median of the rounds)`;
    }
    return rows;
  } finally {
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
    await server.close();
  }
}
