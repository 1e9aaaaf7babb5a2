// `npm run bench -- reports` (issue 30): the team reports over a quarter at BENCH_REPORTS_PEOPLE
// people and BENCH_REPORTS_RECORDS timeline records (reports-seed.ts), on SQLite and PostgreSQL,
// as the Owner (every agent) and as an Agent (their own row). Each row: one client's latency,
// median and p95 over BENCH_REPORTS_SAMPLES requests. The quarter starts and ends mid-day, so the
// edges are counted from the records as well as whole days from the counters.
// BENCH_REPORTS_DB (sqlite,postgres) and BENCH_PG_URL (an admin URL) choose what runs.
import { createUser } from '../src/accounts/accounts.service.js';
import { type BenchHarness, type BenchRow, median, scratchPostgres } from './lib.js';
import { SEED_END, seedReports } from './reports-seed.js';

const PEOPLE = Number(process.env.BENCH_REPORTS_PEOPLE ?? 1_000_000);
const RECORDS = Number(process.env.BENCH_REPORTS_RECORDS ?? 10_000_000);
const DATABASES = (process.env.BENCH_REPORTS_DB ?? 'sqlite,postgres').split(',');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SAMPLES = Number(process.env.BENCH_REPORTS_SAMPLES ?? 30);
const AGENTS = 12;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
const QUARTER = `since=${iso(SEED_END - 91 * 86_400_000)}&until=${iso(SEED_END)}`;
const REPORTS = ['agentActivity', 'leadSources', 'uncontacted', 'pipeline', 'campaigns', 'team'];

async function timed(url: string, key: string) {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 2; i++) {
    const began = performance.now();
    const res = await fetch(url, { headers: { authorization: basic(key) } });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body}`);
    if (i >= 2) times.push(performance.now() - began); // two warm-up requests
  }
  return { p50: median(times), p95: percentile(times, 95) };
}

async function measureDatabase(h: BenchHarness, database: string) {
  const scratch =
    database === 'postgres'
      ? await scratchPostgres(PG_ADMIN_URL, `hearth_bench_reports_${process.pid}`)
      : null;
  let agentKey = '';
  const began = performance.now();
  const server = await h.startServer(scratch ? { DATABASE_URL: scratch.url } : {}, {
    seed: async (ctx, accountId) => {
      const agents = [];
      for (let i = 0; i < AGENTS; i++)
        agents.push(
          await createUser(ctx.db, {
            accountId,
            name: `Agent ${i}`,
            email: `agent${i}@bench.test`,
            role: 'Agent',
          }),
        );
      agentKey = agents[0].apiKey;
      await seedReports(
        ctx,
        accountId,
        agents.map((a) => a.user.id),
        PEOPLE,
        RECORDS,
      );
    },
  });
  const label = database === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  process.stderr.write(
    `${label}: seeded in ${((performance.now() - began) / 1000).toFixed(0)} s\n`,
  );
  const rows: { name: string; p50: number; p95: number }[] = [];
  try {
    for (const report of REPORTS)
      for (const [role, key] of [
        ['Owner', server.ownerKey],
        ['Agent', agentKey],
      ]) {
        const name = `GET /v1/reports/${report} (quarter) as ${role}`;
        const result = await timed(`${server.url}/v1/reports/${report}?${QUARTER}`, key);
        process.stderr.write(
          `${label}: ${name}: ${result.p50.toFixed(1)} / ${result.p95.toFixed(1)} ms\n`,
        );
        rows.push({ name, ...result });
      }
  } finally {
    await server.close();
    await scratch?.drop();
  }
  return { label, rows };
}

export default async function reportsBench(h: BenchHarness): Promise<BenchRow[]> {
  const settings = [];
  for (const database of DATABASES) settings.push(await measureDatabase(h, database));
  const header = [
    `${PEOPLE.toLocaleString('en')} people, ${RECORDS.toLocaleString('en')} records: ms (median / p95)`,
    ...settings.map((s) => s.label),
  ];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of settings[0]?.rows ?? [])
    console.log(
      `| ${[
        row.name,
        ...settings.map((s) => {
          const r = s.rows.find((x) => x.name === row.name);
          return r ? `${r.p50.toFixed(1)} / ${r.p95.toFixed(1)}` : '';
        }),
      ].join(' | ')} |`,
    );
  return [];
}
