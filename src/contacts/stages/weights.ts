import { sql } from 'kysely';
import type { Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { emit } from '../../accounts/webhooks/outbox.js';

/** Weights are renumbered on this step: 10, 20, 30… */
export const WEIGHT_STEP = 10;

export interface Weighted {
  id: number;
  weight: number;
}

/**
 * The ordering rule shared by stages, pipelines and pipeline stages.
 *
 * A set of siblings is ordered by (weight, id). When an item is created with a requested weight, or
 * an item's weight changes:
 *  1. the other siblings keep their current order;
 *  2. the item is placed among them by the requested weight: when it moves down (requested weight
 *     above its old weight) it goes after the last sibling whose weight is <= the request; otherwise
 *     (moving up, or newly created) it goes before the first sibling whose weight is >= the request.
 *     No request (a create without orderWeight) puts it last;
 *  3. every sibling is renumbered 10, 20, 30… in that order.
 * So weights stay distinct multiples of 10, the requested order always holds, and a request that is
 * a multiple of 10 within range lands exactly on that weight (asking for 20 takes the place of the
 * item at 20). Siblings whose weight changed are returned so that their "updated" events fire.
 * Deleting an item leaves a gap and renumbers nothing.
 *
 * Returns the new weight of every sibling (the item included), keyed by id.
 */
export function placeByWeight(
  siblings: Weighted[],
  item: { id: number; requested: number | undefined; previous?: number },
): Map<number, number> {
  const others = siblings
    .filter((s) => s.id !== item.id)
    .sort((a, b) => a.weight - b.weight || a.id - b.id);
  let index = others.length;
  if (item.requested !== undefined) {
    const requested = item.requested;
    if (item.previous !== undefined && requested > item.previous) {
      index = 0;
      others.forEach((s, i) => {
        if (s.weight <= requested) index = i + 1;
      });
    } else {
      const before = others.findIndex((s) => s.weight >= requested);
      index = before === -1 ? others.length : before;
    }
  }
  const ordered = [
    ...others.slice(0, index).map((s) => s.id),
    item.id,
    ...others.slice(index).map((s) => s.id),
  ];
  return new Map(ordered.map((id, i) => [id, (i + 1) * WEIGHT_STEP]));
}

/** The ids whose weight differs between two weight maps (ids absent from `before` are skipped). */
export function movedIds(
  before: Weighted[],
  after: Map<number, number>,
  except?: number,
): number[] {
  return before
    .filter((s) => s.id !== except && after.has(s.id) && after.get(s.id) !== s.weight)
    .map((s) => s.id);
}

/** Account-wide sibling sets whose renumbered members announce themselves with an event. */
const announcedSiblings = {
  stages: 'stageUpdated',
  pipelines: 'pipelineUpdated',
} as const;

/**
 * Writes the renumbered weights of the siblings that moved when `targetId` was placed, in their new
 * order, and fires the table's "updated" event for each. The target's own row and event are the
 * caller's to write.
 */
export async function applyMovedWeights(
  trx: Trx,
  table: keyof typeof announcedSiblings,
  accountId: number,
  before: Weighted[],
  weights: Map<number, number>,
  targetId: number,
  at: string,
): Promise<void> {
  const moved = movedIds(before, weights, targetId).sort(
    (a, b) => weights.get(a)! - weights.get(b)!,
  );
  for (const id of moved) {
    await trx
      .updateTable(table)
      .set({ order_weight: weights.get(id)!, updated_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }
  for (const id of moved) await emit(trx, accountId, announcedSiblings[table], [id]);
}

/**
 * Serialises weight changes of one set of siblings across transactions on PostgreSQL, so that
 * concurrent creates never compute their weights from the same snapshot. SQLite runs one write
 * transaction at a time already (and has no FOR UPDATE). NO KEY UPDATE: these writers exclude each
 * other, but inserts elsewhere whose foreign key names the account (an appointment, a person) take
 * only a key-share lock on it and must not wait for them (with FOR UPDATE, an appointment naming a
 * type being renamed deadlocked with the rename).
 */
export async function lockRow(
  trx: Trx,
  dialect: DialectName,
  table: 'accounts' | 'pipelines',
  id: number,
): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select id from ${sql.table(table)} where id = ${id} for no key update`.execute(trx);
}
