// 10,000 people enter one automation at once (addTag, createTask, changeStage each): how many
// runs the server's worker finishes per second, its peak memory, and GET /livez latency meanwhile
// (one request at a time, like a health check). `npm run bench -- automations`.
import { readFileSync } from 'node:fs';
import { startRuns } from '../src/marketing/automations/runs.js';
import { type BenchHarness, type BenchRow, median } from './lib.js';

const PEOPLE = Number(process.env.BENCH_AUTOMATION_PEOPLE ?? 10_000);

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const server = await h.startServer({}, { people: PEOPLE });
  try {
    const headers = {
      authorization: server.authHeader,
      'content-type': 'application/json',
      'x-system': server.system.name,
      'x-system-key': server.system.key,
    };
    const made = await fetch(`${server.url}/v1/automations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Bench',
        trigger: { type: 'tagAdded', tag: 'bench-never' },
        actions: [
          { type: 'addTag', tag: 'entered' },
          { type: 'createTask', name: 'Call' },
          { type: 'changeStage', stage: 'Prospect' },
        ],
      }),
    });
    const automationId = ((await made.json()) as { id: number }).id;
    const people = await server.ctx.db
      .selectFrom('people')
      .select('id')
      .where('account_id', '=', server.accountId)
      .execute();
    const started = performance.now();
    await server.ctx.db.transaction().execute((trx) =>
      startRuns(
        server.ctx,
        trx,
        server.accountId,
        automationId,
        people.map((p) => p.id),
      ),
    );
    const latencies: number[] = [];
    let peakRss = rssMb(server.pid);
    let done = 0;
    while (done < people.length) {
      const t = performance.now();
      await fetch(`${server.url}/livez`);
      latencies.push(performance.now() - t);
      peakRss = Math.max(peakRss, rssMb(server.pid));
      if (latencies.length % 20 === 0) {
        const row = await server.ctx.db
          .selectFrom('automation_runs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('automation_id', '=', automationId)
          .where('status', '=', 'Completed')
          .executeTakeFirstOrThrow();
        done = Number(row.n);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const rate = people.length / seconds;
    console.log(
      `automations: ${people.length} runs (3 actions each) in ${seconds.toFixed(1)} s = ${rate.toFixed(0)} runs/s; ` +
        `server peak RSS ${peakRss.toFixed(0)} MB; /livez p50 ${median(latencies).toFixed(1)} ms, ` +
        `p99 ${percentile(latencies, 0.99).toFixed(1)} ms over ${latencies.length} requests`,
    );
    return [];
  } finally {
    await server.close();
  }
}
