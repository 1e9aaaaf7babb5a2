import { sql } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { onlyVisiblePeople } from '../../access/visibility.js';
import type { EmCounts } from './emEvents.types.js';
import type { EmEventDay, NewEmEvent } from './emEvents.tables.js';
import './emEvents.tables.js';

/**
 * The counters behind the statistics (migration 0340): events per (campaign, type) with the
 * number of people who have one, and events per (campaign, person, type). insertEmEvents keeps
 * them in the transaction that inserts the events; a trigger takes deleted events out.
 *
 * On PostgreSQL concurrent batches of one campaign update the same counter rows. Each adds to the
 * committed value (`events = events + excluded.events` re-reads the row once the lock is free), so
 * no increment is lost; every writer takes its rows in one order, per-person rows then campaign
 * counters, each sorted by key, so two batches queue instead of deadlocking. That holds only if a
 * transaction counts once: one that inserts events more than once (recordOutcomes) collects them
 * in an EmEventTally and counts them all at the end.
 */
interface CountKey {
  account_id: number;
  campaign_id: number;
  type: string;
}

const keyOf = (k: Pick<CountKey, 'campaign_id' | 'type'>) => `${k.campaign_id}\u0000${k.type}`;
/** Type in byte order (the types are ASCII), as the delete trigger locks them. */
const byType = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Adds `deltas` to the campaign counters, creating missing ones, in (campaign_id, type) order. */
async function addCounts(trx: Trx, deltas: (CountKey & { events: number; people: number })[]) {
  const sorted = [...deltas].sort(
    (a, b) => a.campaign_id - b.campaign_id || byType(a.type, b.type),
  );
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

/**
 * Adds the events to the per-person counts; answers, per (campaign, type), how many people had
 * none before (a row that now holds exactly what was added is new: rows of zero are deleted).
 */
async function addPersonCounts(trx: Trx, rows: NewEmEvent[]): Promise<Map<string, number>> {
  const deltas = new Map<string, CountKey & { person_id: number; events: number }>();
  for (const row of rows) {
    const key = `${row.campaign_id}\u0000${row.person_id}\u0000${row.type}`;
    const delta = deltas.get(key) ?? {
      account_id: row.account_id,
      campaign_id: row.campaign_id,
      person_id: row.person_id,
      type: row.type,
      events: 0,
    };
    delta.events++;
    deltas.set(key, delta);
  }
  const sorted = [...deltas.values()].sort(
    (a, b) => a.campaign_id - b.campaign_id || a.person_id - b.person_id || byType(a.type, b.type),
  );
  const newPeople = new Map<string, number>();
  for (let i = 0; i < sorted.length; i += 500) {
    const group = sorted.slice(i, i + 500);
    const stored = await trx
      .insertInto('em_event_person_counts')
      .values(group)
      .onConflict((oc) =>
        oc.columns(['campaign_id', 'person_id', 'type']).doUpdateSet({
          events: sql`em_event_person_counts.events + excluded.events`,
        }),
      )
      .returning(['campaign_id', 'person_id', 'type', 'events'])
      .execute();
    for (const row of stored) {
      const added = deltas.get(`${row.campaign_id}\u0000${row.person_id}\u0000${row.type}`)!;
      if (Number(row.events) === added.events)
        newPeople.set(keyOf(row), (newPeople.get(keyOf(row)) ?? 0) + 1);
    }
  }
  return newPeople;
}

/**
 * Adds the events to the campaigns report's day counters (migration 0471), last and in key order
 * as the other counters: (day, campaign, sender, type).
 */
async function addDayCounts(trx: Trx, rows: NewEmEvent[]) {
  const deltas = new Map<string, EmEventDay>();
  for (const row of rows) {
    const day = row.occurred_at.slice(0, 10);
    const user = row.user_id ?? 0;
    const key = `${day}\u0000${row.campaign_id}\u0000${user}\u0000${row.type}`;
    const delta = deltas.get(key) ?? {
      account_id: row.account_id,
      day,
      campaign_id: row.campaign_id,
      user_id: user,
      type: row.type,
      events: 0,
    };
    delta.events = Number(delta.events) + 1;
    deltas.set(key, delta);
  }
  const sorted = [...deltas.entries()].sort(([a], [b]) => byType(a, b)).map(([, d]) => d);
  for (let i = 0; i < sorted.length; i += 500)
    await trx
      .insertInto('em_event_days')
      .values(sorted.slice(i, i + 500))
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'day', 'campaign_id', 'user_id', 'type'])
          .doUpdateSet({ events: sql`em_event_days.events + excluded.events` }),
      )
      .execute();
}

/** Counts events just inserted (insertEmEvents, or a tally's): once per transaction, at the end. */
export async function countEmEvents(trx: Trx, rows: NewEmEvent[]): Promise<void> {
  if (rows.length === 0) return;
  const people = await addPersonCounts(trx, rows);
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
  await addDayCounts(trx, rows);
}

/** Events inserted but not counted yet, by a transaction that inserts more than once. */
export class EmEventTally {
  readonly rows: NewEmEvent[] = [];
}

function countsFrom(rows: { type: string; events: number | string; people: number | string }[]) {
  const counts: EmCounts = { byType: {}, uniqueByType: {} };
  for (const row of rows) {
    counts.byType[row.type] = Number(row.events);
    counts.uniqueByType[row.type] = Number(row.people);
  }
  return counts;
}

/** Every event of the account, of one campaign when given: the campaign counters. */
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
  return countsFrom(await query.groupBy('type').execute());
}

/**
 * The events of the people `auth` may see (of one campaign, one person when given): the
 * per-person counts, a row per person and type instead of a row per event.
 */
export async function countedEmEventsOfPeople(
  db: DbOrTrx,
  auth: AuthUser,
  filters: { campaignId?: number; personId?: number },
): Promise<EmCounts> {
  let query = onlyVisiblePeople(
    db
      .selectFrom('em_event_person_counts as pc')
      .select([
        'pc.type',
        sql<number>`sum(pc.events)`.as('events'),
        sql<number>`count(*)`.as('people'),
      ])
      .where('pc.account_id', '=', auth.accountId),
    db,
    auth,
    'pc.person_id',
  );
  if (filters.campaignId !== undefined)
    query = query.where('pc.campaign_id', '=', filters.campaignId);
  if (filters.personId !== undefined) query = query.where('pc.person_id', '=', filters.personId);
  return countsFrom(await query.groupBy('pc.type').execute());
}
