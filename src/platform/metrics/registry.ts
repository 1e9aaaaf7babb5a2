import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's one metrics registry. Counters live here rather than per app so that the delivery
 * worker (in the same process with HEARTH_ROLE=all) and the API share them.
 */
export const registry = new Registry();
let defaultsCollected = false;

/** Node's own metrics (event-loop lag, GC, heap, CPU), started the first time /metrics is served. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
}

export const requestDuration = new Histogram({
  name: 'hearth_http_request_duration_seconds',
  help: 'Time from receiving a request to sending its answer, by route and status',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const rateLimitRejections = new Counter({
  name: 'hearth_rate_limit_rejections_total',
  help: 'Requests refused with 429 (rate limits and capacity protection), by route',
  labelNames: ['route'] as const,
  registers: [registry],
});

export const deliveryOutcomes = new Counter({
  name: 'hearth_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts made by this process, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const queueDepth = new Gauge({
  name: 'hearth_queue_depth',
  help: 'Work waiting: pending webhook deliveries and pending background jobs',
  labelNames: ['queue'] as const,
  registers: [registry],
});

export const queueOldestAge = new Gauge({
  name: 'hearth_queue_oldest_age_seconds',
  help: 'Age of the oldest waiting item of each queue (0 when empty)',
  labelNames: ['queue'] as const,
  registers: [registry],
});

export const dbPoolConnections = new Gauge({
  name: 'hearth_db_pool_connections',
  help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on SQLite',
  labelNames: ['state'] as const,
  registers: [registry],
});
