import { sql } from 'kysely';
import type { DbOrTrx, Trx } from '../db/database.js';
import type { EmCounts } from './emEvents.stats.js';
import type { NewEmEvent } from './emEvents.repo.js';
import './emEvents.tables.js';

/**
 * The counters behind a campaign's statistics (migration 0310_b): events per (campaign, type) and,
 * for the types counted once per person, how many people have one. insertEmEvents keeps them in the
 * transaction that inserts the events; a trigger takes deleted events out.
 *
 * On PostgreSQL concurrent batches of one campaign update the same counter rows. Each adds to the
 * committed value (`events = events + excluded.events` re-reads the row once the lock is free), so
 * no increment is lost; every writer takes its rows in one order, first-seen rows then counters,
 * each sorted by key, so two batches queue instead of deadlocking. A transaction that inserts events
 * more than once takes its counters up front (reserveEmEventCounts), so that its later inserts
 * find them locked already.
 */
export const PER_PERSON_TYPES: ReadonlySet<string> = new Set(['open', 'click']);

interface CountKey {
  account_id: number;
  campaign_id: number;
  type: string;
}

const keyOf = (k: CountKey) => `${k.campaign_id}\u0000${k.type}`;
/** Campaign, then type in byte order (the types are ASCII), as the delete trigger locks them. */
const byKey = (a: CountKey, b: CountKey) =>
  a.campaign_id - b.campaign_id || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0);

/** Adds `deltas` to the counters, creating missing ones, in (campaign_id, type) order. */
async function addCounts(trx: Trx, deltas: (CountKey & { events: number; people: number })[]) {
  const sorted = [...deltas].sort(byKey);
  for (let i = 0; i < sorted.length; i += 500)
    await trx
      .insertInto('em_event_counts')
      .values(sorted.slice(i, i + 500))
      .onConflict((oc) =>
        oc.columns(['campaign_id', 'type']).doUpdateSet({
          events: sql`em_event_counts.events + excluded.events`,
          people: sql`em_event_counts.people + excluded.people`,
        }),
      )
      .execute();
}

/** Records the first-seen rows of these events; answers how many were new per (campaign, type). */
async function newFirsts(trx: Trx, rows: NewEmEvent[]): Promise<Map<string, number>> {
  const firsts = new Map<string, CountKey & { person_id: number }>();
  for (const row of rows)
    if (PER_PERSON_TYPES.has(row.type))
      firsts.set(`${keyOf(row)}\u0000${row.person_id}`, {
        account_id: row.account_id,
        campaign_id: row.campaign_id,
        type: row.type,
        person_id: row.person_id,
      });
  const sorted = [...firsts.values()].sort((a, b) => byKey(a, b) || a.person_id - b.person_id);
  const added = new Map<string, number>();
  for (let i = 0; i < sorted.length; i += 500) {
    const inserted = await trx
      .insertInto('em_event_firsts')
      .values(sorted.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['campaign_id', 'type', 'person_id']).doNothing())
      .returning(['campaign_id', 'type'])
      .execute();
    for (const r of inserted)
      added.set(keyOf(r as CountKey), (added.get(keyOf(r as CountKey)) ?? 0) + 1);
  }
  return added;
}

/** Counts events just inserted (insertEmEvents): call once per transaction, after the insert. */
export async function countEmEvents(trx: Trx, rows: NewEmEvent[]): Promise<void> {
  if (rows.length === 0) return;
  const people = await newFirsts(trx, rows);
  const deltas = new Map<string, CountKey & { events: number; people: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    const delta = deltas.get(key) ?? {
      account_id: row.account_id,
      campaign_id: row.campaign_id,
      type: row.type,
      events: 0,
      people: people.get(key) ?? 0,
    };
    delta.events++;
    deltas.set(key, delta);
  }
  await addCounts(trx, [...deltas.values()]);
}

/**
 * Locks (creating them when missing) the counters of these (campaign, type) pairs, for a
 * transaction that will insert events more than once (recordOutcomes): taken together and in
 * order before any of its inserts, they cannot be taken in another order later.
 */
export async function reserveEmEventCounts(trx: Trx, keys: CountKey[]): Promise<void> {
  const unique = new Map(keys.map((k) => [keyOf(k), { ...k, events: 0, people: 0 }]));
  await addCounts(trx, [...unique.values()]);
}

/** The counted events of the account, of one campaign when given (every campaign otherwise). */
export async function countedEmEvents(
  db: DbOrTrx,
  accountId: number,
  campaignId: number | undefined,
): Promise<EmCounts> {
  let query = db
    .selectFrom('em_event_counts')
    .select(['type', sql<number>`sum(events)`.as('events'), sql<number>`sum(people)`.as('people')])
    .where('account_id', '=', accountId);
  if (campaignId !== undefined) query = query.where('campaign_id', '=', campaignId);
  const counts: EmCounts = { byType: {}, uniqueByType: {} };
  for (const row of await query.groupBy('type').execute()) {
    counts.byType[row.type] = Number(row.events);
    if (PER_PERSON_TYPES.has(row.type)) counts.uniqueByType[row.type] = Number(row.people);
  }
  return counts;
}
