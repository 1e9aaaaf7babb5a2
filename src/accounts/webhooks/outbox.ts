import type { Trx } from '../../platform/db/database.js';
import type { EventName } from './event-names.js';
import { isoSeconds } from '../../platform/time.js';
import { insertRows } from '../../platform/db/reusable-query.js';

/**
 * Records a change for webhook delivery. It takes a transaction so that the event row commits
 * with the change it describes: none is lost on a crash, none is sent for a rolled-back change.
 */
export async function emit(
  trx: Trx,
  accountId: number,
  event: EventName,
  resourceIds: number[],
  data?: Record<string, unknown>,
  now: number = Date.now(),
): Promise<void> {
  if (resourceIds.length === 0) return;
  await insertRows(trx, 'outbox', [
    {
      account_id: accountId,
      event,
      resource_ids: JSON.stringify(resourceIds),
      data: data === undefined ? null : JSON.stringify(data),
      created_at: isoSeconds(now),
      dispatched_at: null,
    },
  ]);
}

/** The signature of `emit`: what person writes call to record their webhook events. */
export type EmitEvent = (
  trx: Trx,
  accountId: number,
  event: EventName,
  resourceIds: number[],
  data?: Record<string, unknown>,
) => Promise<void>;

/**
 * Collects the events of many changes (a bulk import) and records them as few outbox rows: one per
 * event name and data, its ids in delivery-sized groups (interface part 6, rule 9), instead of one
 * delivery per person. `flush` must run in the same transaction as the changes.
 */
export class EventBatch {
  #groups = new Map<
    string,
    { accountId: number; event: EventName; data?: Record<string, unknown>; ids: number[] }
  >();

  readonly emit: EmitEvent = async (_trx, accountId, event, resourceIds, data) => {
    const key = JSON.stringify([accountId, event, data ?? null]);
    const group = this.#groups.get(key) ?? { accountId, event, data, ids: [] };
    group.ids.push(...resourceIds);
    this.#groups.set(key, group);
  };

  /** Records the events, all in one statement (on PostgreSQL each statement is a round trip). */
  async flush(trx: Trx, idsPerEvent = 100, now: number = Date.now()): Promise<void> {
    await insertRows(trx, 'outbox', this.take(idsPerEvent, now));
  }

  /** The outbox rows of the events collected (and forgets them), for a caller that inserts them. */
  take(idsPerEvent = 100, now: number = Date.now()) {
    const rows = [];
    for (const { accountId, event, data, ids } of this.#groups.values())
      for (let i = 0; i < ids.length; i += idsPerEvent)
        rows.push({
          account_id: accountId,
          event,
          resource_ids: JSON.stringify(ids.slice(i, i + idsPerEvent)),
          data: data === undefined ? null : JSON.stringify(data),
          created_at: isoSeconds(now),
          dispatched_at: null,
        });
    this.#groups.clear();
    return rows;
  }
}
