// `npm run bench`: seeds 100,000 people into a temp SQLite database, starts Hearth as its own
// process and measures each scenario with autocannon (50 connections, BENCH_DURATION s each).
// Figures are medians of per-second rates; each ratio compares with bursts of the hello-world route
// of the same server taken in turn with the row's own (lib.ts measureAgainst: this machine is noisy).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { baselineRow, type BenchRow, harness, type MeasureOptions, printTable } from './lib.js';

process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.some((o) => name.includes(o));

const PEOPLE_SCENARIOS = [
  'GET /v1/people/:id',
  'GET /v1/people?limit=100&email=',
  'GET /v1/people?limit=100',
  'GET /v1/people?limit=100&next=',
  'POST /v1/people',
  'PUT /v1/people/:id',
];

async function peopleScenarios(): Promise<{ baseline: BenchRow; rows: BenchRow[] }> {
  const server = await harness.startServer({}, { people: PEOPLE });
  try {
    const auth = { authorization: server.authHeader };
    const { url } = server;
    const ids = await server.ctx.db
      .selectFrom('people')
      .select(['id'])
      .where('account_id', '=', server.accountId)
      .execute();
    const pick = () => ids[Math.floor(Math.random() * ids.length)].id;
    // A cursor 5,000 records deep, reached by following nextLink like a client would.
    let deep = '/v1/people?limit=100';
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${url}${deep}`, { headers: auth });
      const body = (await res.json()) as { _metadata: { next?: string } };
      if (!body._metadata.next) break;
      deep = `/v1/people?limit=100&next=${encodeURIComponent(body._metadata.next)}`;
    }
    let n = 0;
    const hello = { name: 'baseline: GET /livez (hello world)', url, path: '/livez' };
    const scenarios: [string, MeasureOptions][] = [
      [
        'GET /v1/people/:id',
        {
          name: 'GET /v1/people/:id',
          url,
          path: '/v1/people/1',
          headers: auth,
          vary: () => ({ path: `/v1/people/${pick()}` }),
        },
      ],
      [
        'GET /v1/people?limit=100&email=',
        {
          name: 'GET /v1/people?limit=100&email=…',
          url,
          path: '/v1/people',
          headers: auth,
          vary: () => ({
            path: `/v1/people?limit=100&email=person${Math.floor(Math.random() * PEOPLE)}@bench.test`,
          }),
        },
      ],
      [
        'GET /v1/people?limit=100',
        {
          name: 'GET /v1/people?limit=100 (first page)',
          url,
          path: '/v1/people?limit=100',
          headers: auth,
        },
      ],
      [
        'GET /v1/people?limit=100&next=',
        { name: 'GET /v1/people?limit=100&next=… (5,000 deep)', url, path: deep, headers: auth },
      ],
      [
        'POST /v1/people',
        {
          name: 'POST /v1/people',
          url,
          path: '/v1/people',
          method: 'POST',
          headers: auth,
          vary: () => ({
            body: JSON.stringify({
              firstName: 'New',
              lastName: `Lead ${++n}`,
              emails: [{ value: `new${process.pid}-${n}@bench.test` }],
              tags: ['bench'],
            }),
          }),
        },
      ],
      [
        'PUT /v1/people/:id',
        {
          name: 'PUT /v1/people/:id',
          url,
          path: '/v1/people/1',
          method: 'PUT',
          headers: auth,
          vary: () => ({
            path: `/v1/people/${pick()}`,
            body: JSON.stringify({ background: `note ${++n}` }),
          }),
        },
      ],
    ];
    const rows: BenchRow[] = [];
    const baselines: BenchRow[] = [];
    for (const [name, scenario] of scenarios) {
      if (!wanted(name)) continue;
      const measured = await harness.measureAgainst(hello, scenario);
      rows.push(measured.row);
      baselines.push(...measured.baselines);
    }
    if (baselines.length === 0) baselines.push(await harness.measure(hello));
    const baseline = baselineRow(hello.name, baselines);
    rows.unshift(baseline);
    return { baseline, rows };
  } finally {
    await server.close();
  }
}

/** The names of the bench files (`email` for email.bench.ts): naming one runs only that file. */
const benchFiles = () =>
  readdirSync(path.dirname(fileURLToPath(import.meta.url)))
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => f.replace('.bench.ts', ''));

async function main(): Promise<void> {
  // `npm run bench -- scale` runs only scale.bench.ts, without the people scenarios' server.
  const { baseline, rows } =
    only.length === 0 ||
    only.some((o) => !benchFiles().includes(o) && PEOPLE_SCENARIOS.some((n) => n.includes(o)))
      ? await peopleScenarios()
      : { baseline: null, rows: [] as BenchRow[] };
  const dir = path.dirname(fileURLToPath(import.meta.url));
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()) {
    if (!wanted(file)) continue;
    process.stderr.write(`running ${file}…\n`);
    const scenario = (await import(pathToFileURL(path.join(dir, file)).href)).default as (
      h: typeof harness,
    ) => Promise<BenchRow[]>;
    rows.push(...(await scenario(harness)));
  }
  if (baseline) printTable(rows, baseline);
  else if (rows.length) printTable(rows, rows[0]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
