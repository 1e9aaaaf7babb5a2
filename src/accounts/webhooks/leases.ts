import { type Kysely, sql } from 'kysely';
import type { DB } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { reusableWrite } from '../../platform/db/reusable-query.js';
import type { DueDelivery, LaneWebhook } from './outcomes.js';
import './webhooks.tables.js';

/*
 * The queries behind the delivery engine's lanes (deliverer.ts): a worker holds a webhook through
 * a lease on its row (locked_by, locked_until) and reads that webhook's due deliveries.
 */

/**
 * Active webhooks with due deliveries and no live lease, least recently served first (a released
 * lane keeps its release time in locked_until; never served sorts first on both databases), so
 * busy webhooks take turns. Locked with SKIP LOCKED on PostgreSQL: two workers never claim one.
 */
export function claimableWebhooks(
  db: Kysely<DB>,
  dialect: DialectName,
  now: string,
  skip: number[],
  limit: number,
): Promise<LaneWebhook[]> {
  let query = db
    .selectFrom('webhooks as w')
    .select(['w.id', 'w.account_id', 'w.system', 'w.url', 'w.failing_since'])
    .where('w.status', '=', 'Active')
    .where((eb) => eb.or([eb('w.locked_until', 'is', null), eb('w.locked_until', '<', now)]))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_deliveries as d')
          .select('d.id')
          .whereRef('d.webhook_id', '=', 'w.id')
          .where('d.state', '=', 'pending')
          .where('d.next_attempt_at', '<=', now),
      ),
    )
    .orderBy(sql`coalesce(w.locked_until, '')`)
    .orderBy('w.id')
    .limit(limit);
  if (skip.length > 0) query = query.where('w.id', 'not in', skip);
  if (dialect === 'postgres') query = query.forUpdate().skipLocked();
  return query.execute();
}

/** Gives a worker the lease on these webhooks until `until`. */
export async function leaseWebhooks(
  db: Kysely<DB>,
  ids: number[],
  workerId: string,
  until: string,
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ locked_by: workerId, locked_until: until })
    .where('id', 'in', ids)
    .execute();
}

/** Gives a worker's lease back; locked_until keeps the release time (see claimableWebhooks). */
export async function releaseLease(
  db: Kysely<DB>,
  webhookId: number,
  workerId: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ locked_by: null, locked_until: at })
    .where('id', '=', webhookId)
    .where('locked_by', '=', workerId)
    .execute();
}

/** The lease renewal of every outcome write, compiled once (src/platform/db/reusable-query.ts). */
export const extendLease = reusableWrite(
  (db, _shape, until: string, webhookId: number, workerId: string) =>
    db
      .updateTable('webhooks')
      .set({ locked_until: until })
      .where('id', '=', webhookId)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'Active'),
);

/** Due deliveries of one webhook, oldest first, leaving out those the lane already holds. */
export function dueDeliveriesOf(
  db: Kysely<DB>,
  webhookId: number,
  held: Set<number>,
  limit: number,
  now: string,
): Promise<DueDelivery[]> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.attempts', 'd.first_attempt_at', 'e.event_uuid', 'e.payload'])
    .where('d.webhook_id', '=', webhookId)
    .where('d.state', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .orderBy('d.id')
    .limit(limit);
  if (held.size > 0) query = query.where('d.id', 'not in', [...held]);
  return query.execute();
}
