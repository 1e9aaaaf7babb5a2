// What Hearth's database shortcuts buy (kept only for a gain of 15 % or more in server CPU per
// request). Three API processes on one seeded SQLite file, measured in turn, round after round: as
// shipped; HEARTH_DB_SHORTCUTS=compiled (compiled-once queries, each transaction committing alone);
// and off (plain Kysely). None runs the worker, so a process's CPU is its requests'.
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
  registerServerPid,
  waitForHealth,
} from './lib.js';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 20_000);
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/server.js');

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const server = await h.startServer({ HEARTH_ROLE: 'api' }, { people: PEOPLE });
  const variants = ['compiled', 'off'].map((shortcuts) => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, [SERVER], {
      env: {
        ...process.env,
        HEARTH_DATA_DIR: server.dataDir,
        PORT: String(port),
        DATABASE_URL: `sqlite:${path.join(server.dataDir, 'hearth.db')}`,
        HEARTH_RATE_LIMITS: 'off',
        HEARTH_LOG_LEVEL: 'warn',
        HEARTH_ROLE: 'api',
        HEARTH_DB_SHORTCUTS: shortcuts,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return { label: `HEARTH_DB_SHORTCUTS=${shortcuts}`, url: `https://127.0.0.1:${port}`, child };
  });
  try {
    for (const { url, child } of variants) {
      await waitForHealth(url, child);
      registerServerPid(url, child.pid);
    }
    const setups = [{ label: 'shortcuts on (as shipped)', url: server.url }, ...variants];
    const headers = {
      authorization: server.authHeader,
      'x-system': server.system.name,
      'x-system-key': server.system.key,
    };
    let n = 0;
    const pick = () => 1 + Math.floor(Math.random() * PEOPLE);
    const lead = leadEvents(PEOPLE, 'shortcut');
    const scenarios: [string, Omit<MeasureOptions, 'name' | 'url'>][] = [
      [
        'POST /v1/events',
        { path: '/v1/events', method: 'POST', headers, vary: () => ({ body: lead() }) },
      ],
      [
        'POST /v1/people',
        {
          path: '/v1/people',
          method: 'POST',
          headers,
          vary: () => ({
            body: JSON.stringify({
              firstName: 'New',
              lastName: `Person ${++n}`,
              emails: [{ value: `new${process.pid}-${n}@bench.test` }],
            }),
          }),
        },
      ],
      [
        'GET /v1/people/:id',
        { path: '/v1/people/1', headers, vary: () => ({ path: `/v1/people/${pick()}` }) },
      ],
    ];
    const burst = Math.max(2, Math.round(h.durationSeconds / BENCH_ROUNDS));
    const rows: BenchRow[] = [];
    for (const [name, scenario] of scenarios) {
      const runs: BenchRow[][] = setups.map(() => []);
      for (let round = 0; round < BENCH_ROUNDS; round++) {
        const warmupSeconds = round === 0 ? undefined : 0;
        for (const [i, { url }] of setups.entries())
          runs[i].push(
            await h.measure({ ...scenario, name, url, durationSeconds: burst, warmupSeconds }),
          );
      }
      const plain = runs[runs.length - 1];
      for (const [i, { label }] of setups.entries()) {
        const bursts = runs[i];
        const saved = median(bursts.map((b, r) => 1 - (b.cpuUs ?? NaN) / (plain[r].cpuUs ?? NaN)));
        rows.push({
          name: `${name}: ${label}`,
          rate: median(bursts.map((b) => b.rate)),
          p50: median(bursts.map((b) => b.p50)),
          p99: median(bursts.map((b) => b.p99)),
          worstP99: Math.max(...bursts.map((b) => b.p99)),
          cpuUs: median(bursts.map((b) => b.cpuUs ?? NaN)),
          note:
            bursts === plain
              ? 'plain Kysely, each transaction committing alone'
              : `${(saved * 100).toFixed(0)} % less server CPU per request than plain (median of rounds)`,
        });
      }
    }
    return rows;
  } finally {
    for (const { child } of variants) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await server.close();
  }
}
