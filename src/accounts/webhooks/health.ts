import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/database.js';
import './webhooks.tables.js';

export const HEALTH_WINDOW_MS = 48 * 3600_000;
export const RECOVERY_GRACE_MS = 7 * 86400_000;

/**
 * Automatic disabling (interface part 6 rule 4), evaluated on stored attempts after each attempt:
 * when more than half of the attempts of the last 48 hours failed, the webhook is "failing" from
 * that moment; a later 48-hour window with at most half failed is a recovery. A webhook still
 * failing a week after it started failing becomes Disabled, and its pending deliveries are
 * abandoned. Returns true when it was disabled now.
 */
export async function evaluateWebhookHealth(
  db: Kysely<DB>,
  webhook: { id: number; failing_since: string | null },
  nowMs: number,
): Promise<{ disabled: boolean; failingSince: string | null }> {
  const since = new Date(nowMs - HEALTH_WINDOW_MS).toISOString();
  const stats = await db
    .selectFrom('webhook_attempts')
    .select([
      sql<number>`count(*)`.as('total'),
      sql<number>`sum(case when success = 0 then 1 else 0 end)`.as('failed'),
    ])
    .where('webhook_id', '=', webhook.id)
    .where('attempted_at', '>=', since)
    .executeTakeFirst();
  const total = Number(stats?.total ?? 0);
  const failed = Number(stats?.failed ?? 0);
  if (total === 0) return { disabled: false, failingSince: webhook.failing_since };
  const now = new Date(nowMs).toISOString();
  if (failed * 2 <= total) {
    if (webhook.failing_since !== null)
      await db
        .updateTable('webhooks')
        .set({ failing_since: null })
        .where('id', '=', webhook.id)
        .execute();
    return { disabled: false, failingSince: null };
  }
  if (webhook.failing_since === null) {
    await db
      .updateTable('webhooks')
      .set({ failing_since: now })
      .where('id', '=', webhook.id)
      .execute();
    return { disabled: false, failingSince: now };
  }
  if (nowMs - Date.parse(webhook.failing_since) < RECOVERY_GRACE_MS)
    return { disabled: false, failingSince: webhook.failing_since };
  await db
    .updateTable('webhooks')
    .set({
      status: 'Disabled',
      updated_at: now.replace(/\.\d{3}Z$/, 'Z'),
      locked_by: null,
      locked_until: null,
    })
    .where('id', '=', webhook.id)
    .execute();
  await db
    .updateTable('webhook_deliveries')
    .set({ state: 'abandoned', finished_at: now })
    .where('webhook_id', '=', webhook.id)
    .where('state', '=', 'pending')
    .execute();
  return { disabled: true, failingSince: webhook.failing_since };
}
