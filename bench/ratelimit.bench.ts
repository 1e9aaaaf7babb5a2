// Cost of the rate limiter on GET /v1/people/:id: limits off vs in process vs Redis, as the median
// of per-round ratios to "off" (the three servers are measured in turn, round after round). Limits
// are raised through an override file so nothing is refused, and requests carry a verified system
// so the full path (system bucket, window, usage count) runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BENCH_ROUNDS, type BenchHarness, type BenchRow, type BenchServer, median } from './lib.js';

const REDIS_URL =
  process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-rl-bench-'));
  const file = path.join(dir, 'limits.json');
  const high = { global: 100_000_000 };
  writeFileSync(file, JSON.stringify({ withSystemKey: high, withoutSystemKey: high }));
  const variants: [string, Record<string, string>][] = [
    ['GET /v1/people/:id, rate limits off', { HEARTH_RATE_LIMITS: 'off' }],
    ['GET /v1/people/:id, limiter in process', { HEARTH_RATE_LIMITS: file }],
    ['GET /v1/people/:id, limiter on Redis', { HEARTH_RATE_LIMITS: file, REDIS_URL }],
  ];
  const servers: BenchServer[] = [];
  try {
    // All three run at once and are measured in turn, round after round: the machine's drift
    // between rounds then falls on every variant alike (see measureAgainst in lib.ts).
    const targets = [];
    for (const [name, env] of variants) {
      const server = await h.startServer(env);
      servers.push(server);
      await h.seedPeople(server, 1000);
      const ids = (
        await server.ctx.db
          .selectFrom('people')
          .select('id')
          .where('account_id', '=', server.accountId)
          .execute()
      ).map((r) => r.id);
      const headers = {
        authorization: server.authHeader,
        'x-system': server.system.name,
        'x-system-key': server.system.key,
      };
      const pick = () => ids[Math.floor(Math.random() * ids.length)];
      targets.push({
        name,
        url: server.url,
        path: `/v1/people/${ids[0]}`,
        headers,
        vary: () => ({ path: `/v1/people/${pick()}` }),
      });
    }
    const burst = Math.max(2, Math.round(h.durationSeconds / BENCH_ROUNDS));
    const bursts: BenchRow[][] = targets.map(() => []);
    for (let round = 0; round < BENCH_ROUNDS; round++) {
      for (const [i, target] of targets.entries()) {
        bursts[i].push(
          await h.measure({
            ...target,
            durationSeconds: burst,
            warmupSeconds: round === 0 ? undefined : 0,
          }),
        );
      }
    }
    const rows: BenchRow[] = targets.map((target, i) => ({
      name: target.name,
      rate: median(bursts[i].map((b) => b.rate)),
      p50: median(bursts[i].map((b) => b.p50)),
      p99: median(bursts[i].map((b) => b.p99)),
      worstP99: Math.max(...bursts[i].map((b) => b.p99)),
      ratio: median(bursts[i].map((b, round) => b.rate / bursts[0][round].rate)),
    }));
    rows[1].note = `cost ${(100 - rows[1].ratio! * 100).toFixed(1)}% (target ≤10%)`;
    rows[2].note = `cost ${(100 - rows[2].ratio! * 100).toFixed(1)}% (target ≤25%)`;
    return rows;
  } finally {
    for (const server of servers) await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
