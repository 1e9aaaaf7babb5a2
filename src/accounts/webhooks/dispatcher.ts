import { type Kysely, type Selectable, sql } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { DB, OutboxTable } from '../../platform/db/database.js';
import { buildEventBodies } from './payload.js';
import { writeTransaction } from './write-tx.js';
import { insertJsonRows } from '../../platform/db/json-rows.js';
import './webhooks.tables.js';

/** Outbox rows fanned out per transaction. */
export const FANOUT_BATCH = 500;
/**
 * A new delivery is due at once, whatever the clock of the worker that fanned it out says: a
 * worker whose clock runs ahead must not hold deliveries back from the others.
 */
export const DUE_NOW = new Date(0).toISOString();
/** Rows per INSERT: one JSON parameter each (src/platform/db/json-rows.ts), whatever the count. */
const ROWS_PER_INSERT = 500;
const EVENT_COLUMNS = {
  event_uuid: 'text',
  account_id: 'integer',
  event: 'text',
  payload: 'text',
  created_at: 'text',
} as const;
const DELIVERY_COLUMNS = {
  account_id: 'integer',
  webhook_id: 'integer',
  event_id: 'integer',
  state: 'text',
  next_attempt_at: 'text',
  created_at: 'text',
} as const;
/** pg advisory lock: one fan-out at a time keeps delivery ids in outbox (event) order. */
const FANOUT_LOCK = 0x4865_6172;

function inChunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** What one fan-out did: outbox rows handled, and the webhooks that got new deliveries. */
export interface FanOut {
  rows: number;
  webhookIds: Set<number>;
}

const NOTHING: FanOut = { rows: 0, webhookIds: new Set() };

/**
 * Reads each batch of outbox rows inside the fan-out's transaction, before deliveries are made
 * (automation triggers); the worker hands it in, so that webhooks need not import its domain.
 */
export type OutboxReader = (
  ctx: AppContext,
  fanOutTransaction: Kysely<DB>,
  rows: Selectable<OutboxTable>[],
) => Promise<void>;

/**
 * Turns undispatched outbox rows into stored events (the exact bodies, split into ≤100 ids) and
 * one pending delivery per matching Active webhook, and marks the rows dispatched: all in one
 * transaction, so a crash either leaves the rows for the next worker or has done all of it.
 */
export async function fanOutOutbox(
  ctx: AppContext,
  readers: OutboxReader[] = [],
  limit = FANOUT_BATCH,
): Promise<FanOut> {
  return writeTransaction(ctx, async (db: Kysely<DB>) => {
    if (ctx.dialect === 'postgres') {
      const lock = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(${FANOUT_LOCK}) as locked`.execute(db);
      if (!lock.rows[0]?.locked) return NOTHING;
    }
    let pending = db
      .selectFrom('outbox')
      .selectAll()
      .where('dispatched_at', 'is', null)
      .orderBy('id')
      .limit(limit);
    if (ctx.dialect === 'postgres') pending = pending.forUpdate().skipLocked();
    const rows = await pending.execute();
    if (rows.length === 0) return NOTHING;
    for (const read of readers) await read(ctx, db, rows);

    const accountIds = [...new Set(rows.map((r) => r.account_id))];
    const hooks = await db
      .selectFrom('webhooks')
      .select(['id', 'account_id', 'event'])
      .where('status', '=', 'Active')
      .where('inbox_app_id', 'is', null)
      .where('account_id', 'in', accountIds)
      .orderBy('id')
      .execute();
    const byEvent = new Map<string, { id: number; account_id: number }[]>();
    for (const hook of hooks) {
      const key = `${hook.account_id}:${hook.event}`;
      byEvent.set(key, [...(byEvent.get(key) ?? []), hook]);
    }

    const nowMs = ctx.clock.now();
    const now = new Date(nowMs).toISOString();
    const events: {
      uuid: string;
      accountId: number;
      event: string;
      body: string;
      hooks: { id: number }[];
    }[] = [];
    for (const row of rows) {
      const matching = byEvent.get(`${row.account_id}:${row.event}`);
      if (!matching) continue;
      for (const built of buildEventBodies(ctx.config.publicUrl, row)) {
        events.push({ ...built, accountId: row.account_id, hooks: matching });
      }
    }

    const eventIds = new Map<string, number>();
    for (const part of inChunks(events, ROWS_PER_INSERT)) {
      const inserted = await insertJsonRows<{ id: number; event_uuid: string }>(
        db,
        ctx.dialect,
        'webhook_events',
        EVENT_COLUMNS,
        part.map((e) => ({
          event_uuid: e.uuid,
          account_id: e.accountId,
          event: e.event,
          payload: e.body,
          created_at: now,
        })),
        ['id', 'event_uuid'],
      );
      for (const r of inserted) eventIds.set(r.event_uuid, Number(r.id));
    }
    const deliveries = events.flatMap((e) =>
      e.hooks.map((hook) => ({
        account_id: e.accountId,
        webhook_id: hook.id,
        event_id: eventIds.get(e.uuid)!,
        state: 'pending',
        next_attempt_at: DUE_NOW,
        created_at: now,
      })),
    );
    for (const part of inChunks(deliveries, ROWS_PER_INSERT))
      await insertJsonRows(db, ctx.dialect, 'webhook_deliveries', DELIVERY_COLUMNS, part);
    for (const part of inChunks(
      rows.map((r) => r.id),
      500,
    )) {
      await db.updateTable('outbox').set({ dispatched_at: now }).where('id', 'in', part).execute();
    }
    return { rows: rows.length, webhookIds: new Set(deliveries.map((d) => d.webhook_id)) };
  });
}
