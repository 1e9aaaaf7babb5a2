import type { DueWorkSource } from '../../platform/metrics/metrics.routes.js';
import './webhooks.tables.js';

/** Webhook deliveries due now, for the queue gauges of /metrics. */
export const dueDeliveries: DueWorkSource = {
  queue: 'webhook_deliveries',
  due: (db, now) =>
    db
      .selectFrom('webhook_deliveries')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('next_attempt_at').as('oldest')])
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .executeTakeFirstOrThrow(),
};
