import type { AppContext } from '../../platform/context.js';
import './webhooks.tables.js';

/** Events stay fetchable for at least 30 days (GET /v1/webhookEvents/:id); a little longer is kept. */
export const EVENT_RETENTION_MS = 35 * 86400_000;
/** Dispatched outbox rows are only needed until fan-out. */
const OUTBOX_RETENTION_MS = 7 * 86400_000;

/** Deletes events older than the retention (their finished deliveries and attempts go with them) and old outbox rows. */
export async function pruneDeliveryLog(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  const cutoff = new Date(now - EVENT_RETENTION_MS).toISOString();
  const stillPending = ctx.db
    .selectFrom('webhook_deliveries')
    .select('event_id')
    .where('state', '=', 'pending');
  await ctx.db
    .deleteFrom('webhook_events')
    .where('created_at', '<', cutoff)
    .where('id', 'not in', stillPending)
    .execute();
  await ctx.db
    .deleteFrom('outbox')
    .where('dispatched_at', 'is not', null)
    .where('dispatched_at', '<', new Date(now - OUTBOX_RETENTION_MS).toISOString())
    .execute();
}
