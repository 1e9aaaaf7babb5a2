import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { poolOf } from '../db/hearth-db.js';
import { ApiError } from '../http/errors.js';
import {
  collectProcessMetrics,
  dbPoolConnections,
  queueDepth,
  queueOldestAge,
  rateLimitRejections,
  registry,
  requestDuration,
} from './registry.js';
import type { DbOrTrx } from '../db/database.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A queue whose due work is measured: features register theirs, the platform reads them. */
export interface DueWorkSource {
  queue: string;
  /** How many items are due at `now` (ISO), and the oldest one's due time. */
  due(db: DbOrTrx, now: string): Promise<{ n: number | string | bigint; oldest: unknown }>;
}

/** Sets the queue gauges from the database: due work and how long the oldest has been due. */
async function readQueues(ctx: AppContext, sources: readonly DueWorkSource[]): Promise<void> {
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs).toISOString();
  for (const { queue, due } of sources) {
    const row = await due(ctx.db, now);
    queueDepth.set({ queue }, Number(row.n));
    const oldest = row.oldest ? Date.parse(String(row.oldest)) : nowMs;
    queueOldestAge.set({ queue }, Math.max(0, (nowMs - oldest) / 1000));
  }
  const pool = poolOf(ctx.db);
  if (pool) {
    dbPoolConnections.set({ state: 'total' }, pool.totalCount);
    dbPoolConnections.set({ state: 'idle' }, pool.idleCount);
    dbPoolConnections.set({ state: 'waiting' }, pool.waitingCount);
  }
}

/**
 * Prometheus metrics at GET /metrics, only when HEARTH_METRICS_TOKEN is set, and only for a
 * scraper presenting it as a bearer token: request durations by route and status, queue depths
 * and oldest ages, delivery outcomes, rate-limit rejections, database pool use, event-loop lag.
 */
export function registerMetrics(
  app: FastifyInstance,
  ctx: AppContext,
  sources: readonly DueWorkSource[],
): void {
  const token = ctx.config.metricsToken;
  if (!token) return;
  collectProcessMetrics();
  const expected = digest(`Bearer ${token}`);

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    requestDuration.observe(
      { method: request.method, route, status_code: String(status) },
      reply.elapsedTime / 1000,
    );
    if (status === 429) rateLimitRejections.inc({ route });
  });

  app.get(
    '/metrics',
    { config: { auth: 'none' }, schema: { hide: true } },
    async (request, reply) => {
      const given = digest(request.headers.authorization ?? '');
      if (!timingSafeEqual(given, expected)) {
        throw new ApiError(
          401,
          'UNAUTHORIZED',
          'Send the metrics token as a bearer token',
          undefined,
          {
            'WWW-Authenticate': 'Bearer realm="Hearth metrics"',
          },
        );
      }
      await readQueues(ctx, sources);
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
}
