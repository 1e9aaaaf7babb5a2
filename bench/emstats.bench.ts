// `npm run bench -- emstats` (issue 19): the statistics of one email-marketing campaign at
// 100,000 and 1,000,000 events (emstats-seed.ts), on SQLite and PostgreSQL, as the Owner and as an
// Agent (who sees the events of a twelfth of the people). Each row: a single client's latency,
// median and p95 over BENCH_EMSTATS_SAMPLES requests, with an event posted to the campaign
// between requests (a live campaign: SQLite's remembered list totals last until the next commit).
// BENCH_EMSTATS_EVENTS (100000,1000000), BENCH_EMSTATS_DB (sqlite,postgres) and BENCH_PG_URL (an
// admin URL; a scratch database is created and dropped) choose what runs.
import { createUser } from '../src/accounts/accounts.service.js';
import {
  type BenchHarness,
  type BenchRow,
  type BenchServer,
  median,
  scratchPostgres,
} from './lib.js';
import { EVENTS_PER_PERSON, seedEmCampaign } from './emstats-seed.js';

const SIZES = (process.env.BENCH_EMSTATS_EVENTS ?? '100000,1000000').split(',').map(Number);
const DATABASES = (process.env.BENCH_EMSTATS_DB ?? 'sqlite,postgres').split(',');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SAMPLES = Number(process.env.BENCH_EMSTATS_SAMPLES ?? 25);
const AGENTS = 12;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function singleClient(
  server: BenchServer,
  path: string,
  key: string,
  target: { campaignId: number; people: number[] },
) {
  const { campaignId, people } = target;
  const times: number[] = [];
  let body = '';
  for (let i = 0; i < SAMPLES + 2; i++) {
    const began = performance.now();
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: basic(key) } });
    body = await res.text();
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${body}`);
    if (i >= 2) times.push(performance.now() - began); // two warm-up requests
    const posted = await fetch(`${server.url}/v1/emEvents`, {
      method: 'POST',
      headers: { authorization: server.authHeader, 'content-type': 'application/json' },
      body: JSON.stringify({
        emEvents: [{ campaignId, type: 'open', personId: people[i % people.length] }],
      }),
    });
    if (posted.status !== 201) throw new Error(`POST /v1/emEvents: ${await posted.text()}`);
  }
  return { p50: median(times), p95: percentile(times, 95), body };
}

interface Measured {
  label: string;
  rows: { name: string; p50: number; p95: number }[];
}

async function measureSetting(h: BenchHarness, database: string, events: number) {
  const scratch =
    database === 'postgres'
      ? await scratchPostgres(PG_ADMIN_URL, `hearth_bench_emstats_${process.pid}`)
      : null;
  const databaseUrl = scratch?.url;
  const label = `${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${events >= 1e6 ? `${events / 1e6}M` : `${events / 1e3}k`}`;
  let campaignId = 0;
  let somePeople: number[] = [];
  let agentKey = '';
  const server = await h.startServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {}, {
    seed: async (ctx, accountId) => {
      const owner = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      const agents = await Promise.all(
        Array.from({ length: AGENTS }, (_, i) =>
          createUser(ctx.db, {
            accountId,
            name: `Agent ${i}`,
            email: `agent${i}@bench.test`,
            role: 'Agent',
          }),
        ),
      );
      agentKey = agents[0].apiKey;
      const people = Math.round(events / EVENTS_PER_PERSON);
      const seed = await seedEmCampaign(
        ctx,
        accountId,
        owner.id,
        people,
        agents.map((a) => a.user.id),
        databaseUrl ?? ctx.config.databaseUrl,
      );
      campaignId = seed.campaignId;
      somePeople = seed.somePeople;
      process.stderr.write(
        `${label}: seeded ${seed.events} events over ${people} people in ${seed.seconds.toFixed(1)} s\n`,
      );
    },
  });
  const measured: Measured = { label, rows: [] };
  try {
    const keys = { Owner: server.ownerKey, Agent: agentKey };
    const paths = {
      'GET /v1/emCampaigns/:id/stats': `/v1/emCampaigns/${campaignId}/stats`,
      'GET /v1/emEvents?campaignId= (first page)': `/v1/emEvents?campaignId=${campaignId}`,
    };
    for (const [route, path] of Object.entries(paths))
      for (const [role, key] of Object.entries(keys)) {
        const name = `${route} as ${role}`;
        const result = await singleClient(server, path, key, { campaignId, people: somePeople });
        const stats = JSON.parse(result.body).stats as { sends: number; opens: number };
        process.stderr.write(
          `${label}: ${name}: ${result.p50.toFixed(1)} / ${result.p95.toFixed(1)} ms (sends ${stats.sends}, opens ${stats.opens})\n`,
        );
        measured.rows.push({ name, p50: result.p50, p95: result.p95 });
      }
  } finally {
    await server.close();
    await scratch?.drop();
  }
  return measured;
}

function printTable(settings: Measured[]) {
  const names = [...new Set(settings.flatMap((s) => s.rows.map((r) => r.name)))];
  const header = ['single client, ms (median / p95)', ...settings.map((s) => s.label)];
  const lines = names.map((name) => [
    name,
    ...settings.map((s) => {
      const row = s.rows.find((r) => r.name === name);
      return row ? `${row.p50.toFixed(1)} / ${row.p95.toFixed(1)}` : '';
    }),
  ]);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const line of lines) console.log(`| ${line.join(' | ')} |`);
}

export default async function emStatsBench(h: BenchHarness): Promise<BenchRow[]> {
  const settings: Measured[] = [];
  for (const database of DATABASES)
    for (const events of SIZES) settings.push(await measureSetting(h, database, events));
  printTable(settings);
  return [];
}
