import { type Selectable, sql } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { onlyVisiblePeople, visiblePersonIds } from '../../access/visibility.js';
import type { EmEventsTable, NewEmEvent } from './emEvents.tables.js';
import { countEmEvents, type EmEventTally } from './emEvents.counts.js';
import './emEvents.tables.js';
import '../emCampaigns/emCampaigns.tables.js';

export type EmEventRow = Selectable<EmEventsTable>;

export interface EmEventFilters {
  ids?: number[];
  types?: string[];
  personId?: number;
  campaignId?: number;
}

/**
 * The email marketing events `auth` may see, filtered: Owner and Admin every event of the
 * account, Agents and Lenders those of the people they can see (access/visibility.ts).
 */
export function visibleEmEvents(db: DbOrTrx, auth: AuthUser, filters: EmEventFilters = {}) {
  let query = onlyVisiblePeople(
    db.selectFrom('em_events').where('em_events.account_id', '=', auth.accountId),
    db,
    auth,
    'em_events.person_id',
  );
  if (filters.ids)
    query = query.where('em_events.id', 'in', filters.ids.length ? filters.ids : [0]);
  if (filters.types)
    query = query.where('em_events.type', 'in', filters.types.length ? filters.types : ['']);
  if (filters.personId !== undefined)
    query = query.where('em_events.person_id', '=', filters.personId);
  if (filters.campaignId !== undefined)
    query = query.where('em_events.campaign_id', '=', filters.campaignId);
  return query;
}

export async function findVisibleEmEvent(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<EmEventRow | undefined> {
  return visibleEmEvents(db, auth, { ids: [id] })
    .selectAll('em_events')
    .executeTakeFirst();
}

/**
 * Inserts events in statement-sized groups and counts them (emEvents.counts.ts) in the same
 * transaction; returns their ids in the order of `rows`. Every insert of events goes through here.
 * A transaction that inserts more than once gives a `tally` and counts it once at the end.
 */
export async function insertEmEvents(
  trx: Trx,
  rows: NewEmEvent[],
  tally?: EmEventTally,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    const inserted = await trx
      .insertInto('em_events')
      .values(rows.slice(i, i + 100))
      .returning('id')
      .execute();
    // One statement assigns ascending ids in row order; RETURNING's own order is not guaranteed.
    ids.push(...inserted.map((r) => r.id).sort((a, b) => a - b));
  }
  if (tally) tally.rows.push(...rows);
  else await countEmEvents(trx, rows);
  return ids;
}

/** Splits a list for `in (...)` so that no statement exceeds the drivers' parameter limits. */
export function inGroups<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Ids among `ids` of the people `auth` may see. */
export async function visiblePeopleAmong(
  db: DbOrTrx,
  auth: AuthUser,
  ids: number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  for (const group of inGroups(ids)) {
    const rows = await visiblePersonIds(db, auth).where('people.id', 'in', group).execute();
    rows.forEach((r) => found.add(r.id));
  }
  return found;
}

/**
 * Lower-cased address → person id, for the addresses that belong to a person `auth` may see.
 * When several people share an address, the oldest person wins (as lead matching does).
 */
export async function peopleByEmail(
  db: DbOrTrx,
  auth: AuthUser,
  emails: string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const group of inGroups(emails)) {
    const query = onlyVisiblePeople(
      db
        .selectFrom('person_emails')
        .select(['person_emails.email', sql<number>`min(person_emails.person_id)`.as('person_id')])
        .where('person_emails.account_id', '=', auth.accountId)
        .where('person_emails.email', 'in', group)
        .groupBy('person_emails.email'),
      db,
      auth,
      'person_emails.person_id',
    );
    for (const row of await query.execute()) found.set(row.email, Number(row.person_id));
  }
  return found;
}

/** Ids among `ids` of the users of the account. */
export async function usersAmong(
  db: DbOrTrx,
  accountId: number,
  ids: number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  for (const group of inGroups(ids)) {
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', 'in', group)
      .execute();
    rows.forEach((r) => found.add(r.id));
  }
  return found;
}
