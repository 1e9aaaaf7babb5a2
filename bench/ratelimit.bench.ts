// Cost of the rate limiter on GET /v1/people/:id: limits off vs in process vs Redis, as ratios to
// "off" measured in the same run. Limits are raised through an override file so nothing is refused,
// and requests carry a verified system so the full path (system bucket, window, usage count) runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchHarness, BenchRow } from './lib.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

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
  const rows: BenchRow[] = [];
  try {
    for (const [name, env] of variants) {
      const server = await h.startServer(env);
      try {
        await h.seedPeople(server, 1000);
        const ids = (await server.ctx.db.selectFrom('people').select('id').where('account_id', '=', server.accountId).execute()).map((r) => r.id);
        const headers = { authorization: server.authHeader, 'x-system': server.system.name, 'x-system-key': server.system.key };
        const pick = () => ids[Math.floor(Math.random() * ids.length)];
        // warm-up (JIT, connection pools, the system-key cache)
        await h.measure({ name, url: server.url, path: `/v1/people/${ids[0]}`, headers, durationSeconds: 2, vary: () => ({ path: `/v1/people/${pick()}` }) });
        rows.push(await h.measure({ name, url: server.url, path: `/v1/people/${ids[0]}`, headers, vary: () => ({ path: `/v1/people/${pick()}` }) }));
      } finally {
        await server.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const off = rows[0].rate;
  for (const row of rows) row.ratio = row.rate / off;
  rows[1].note = `cost ${(100 - rows[1].ratio! * 100).toFixed(1)}% (target ≤10%)`;
  rows[2].note = `cost ${(100 - rows[2].ratio! * 100).toFixed(1)}% (target ≤25%)`;
  return rows;
}
