import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { GroupRow } from '../groups/groups.repo.js';
import type { LeadOffersTable } from '../groups/groups.tables.js';
import '../groups/groups.tables.js';
import { peopleQuery } from '../../contacts/people/people.repo.js';

export type OfferRow = Selectable<LeadOffersTable>;

/** The open offer of a person, if any (at most one: a partial UNIQUE index says so). */
export function openOfferOf(db: DbOrTrx, accountId: number, personId: number) {
  return db
    .selectFrom('lead_offers')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('person_id', '=', personId)
    .where('status', '=', 'open')
    .executeTakeFirst();
}

/** The most recent offer of a person, open or not: says why a late claim is refused. */
export function latestOfferOf(db: DbOrTrx, accountId: number, personId: number) {
  return db
    .selectFrom('lead_offers')
    .leftJoin('users', 'users.id', 'lead_offers.claimed_by_id')
    .selectAll('lead_offers')
    .select('users.name as claimed_by_name')
    .where('lead_offers.account_id', '=', accountId)
    .where('lead_offers.person_id', '=', personId)
    .orderBy('lead_offers.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function memberIdsOf(db: DbOrTrx, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_group_members')
    .select('user_id')
    .where('group_id', '=', groupId)
    .orderBy('position')
    .orderBy('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** Opens an offer of a person to the given users; answers its id. */
export async function insertOffer(
  trx: Trx,
  values: {
    accountId: number;
    personId: number;
    group: GroupRow;
    fallbacks: number;
    userIds: number[];
    nowMs: number;
  },
  iso: (ms: number) => string,
): Promise<number> {
  const { id } = await trx
    .insertInto('lead_offers')
    .values({
      account_id: values.accountId,
      person_id: values.personId,
      group_id: values.group.id,
      status: 'open',
      fallbacks: values.fallbacks,
      offered_at: iso(values.nowMs),
      expires_at: iso(values.nowMs + values.group.claim_window * 1000),
      claimed_by_id: null,
      closed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('lead_offer_recipients')
    .values(
      values.userIds.map((userId) => ({
        offer_id: id,
        account_id: values.accountId,
        user_id: userId,
        ignored_at: null,
      })),
    )
    .execute();
  return id;
}

/**
 * Closes an open offer; answers false when it was no longer open. This conditional UPDATE is the
 * whole race: of concurrent claims (or a claim and the expiry) exactly one changes the row.
 */
export async function closeOffer(
  trx: Trx,
  offerId: number,
  status: 'claimed' | 'expired',
  at: string,
  claimedById: number | null = null,
): Promise<boolean> {
  const result = await trx
    .updateTable('lead_offers')
    .set({ status, closed_at: at, claimed_by_id: claimedById })
    .where('id', '=', offerId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ids of the people offered to a user and not declined by them, while the offer is open. */
export function offeredTo(db: DbOrTrx, accountId: number, userId: number) {
  return db
    .selectFrom('lead_offers')
    .innerJoin('lead_offer_recipients as r', 'r.offer_id', 'lead_offers.id')
    .select('lead_offers.person_id')
    .where('lead_offers.account_id', '=', accountId)
    .where('lead_offers.status', '=', 'open')
    .where('r.user_id', '=', userId)
    .where('r.ignored_at', 'is', null);
}

/** The people offered to a user and not yet claimed (nor ignored by them). */
export function unclaimedPeopleOf(db: DbOrTrx, accountId: number, userId: number) {
  return peopleQuery(db, accountId).where('people.id', 'in', offeredTo(db, accountId, userId));
}
