import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { conflict, forbidden, notFound } from '../../platform/http/errors.js';
import { groupsOf, nextInRotation, type GroupRow } from '../groups/groups.repo.js';
import { accountOwnerId } from '../leadFlows/leadFlows.service.js';
import { notifyAgent } from '../../accounts/notifications/notifications.service.js';
import type { NotificationKind } from '../../accounts/notifications/notifications.tables.js';
import { findPersonInAccount } from '../../contacts/people/people.repo.js';
import { stateFromRow } from '../../contacts/people/people.state.js';
import { findPond } from '../../contacts/people/assignment.js';
import { savePerson } from '../../contacts/people/people.service.js';
import { isoSeconds } from '../../platform/time.js';
import {
  closeOffer,
  insertOffer,
  latestOfferOf,
  memberIdsOf,
  type OfferRow,
  openOfferOf,
} from './offers.repo.js';

/** After this many moves to a fallback, an unclaimed lead goes to the account owner. */
export const MAX_FALLBACKS = 2;

interface OfferContext {
  accountId: number;
  personId: number;
  eventId: number | null;
  /** how many times the lead already went to a fallback */
  fallbacks: number;
}

async function notifyAbout(
  trx: Trx,
  ctx: AppContext,
  offer: OfferContext,
  userId: number,
  kind: NotificationKind,
) {
  const person = await findPersonInAccount(trx, offer.accountId, offer.personId);
  await notifyAgent(trx, ctx, {
    accountId: offer.accountId,
    userId,
    personId: offer.personId,
    eventId: offer.eventId,
    kind,
    personName: person?.name ?? '',
    eventType: kind === 'leadOffer' ? 'First to claim' : 'Unclaimed lead',
    source: person?.source ?? '',
    message: '',
  });
}

/**
 * Offers a person to every member of a first-to-claim group (a notification each). Answers false,
 * opening nothing, when the group has no members: the caller routes the lead elsewhere.
 */
export async function openOffer(
  trx: Trx,
  ctx: AppContext,
  group: GroupRow,
  offer: OfferContext,
): Promise<boolean> {
  const userIds = await memberIdsOf(trx, group.id);
  if (userIds.length === 0) return false;
  await insertOffer(trx, { ...offer, group, userIds, nowMs: ctx.clock.now() }, (ms) =>
    isoSeconds(ms),
  );
  for (const userId of userIds) await notifyAbout(trx, ctx, offer, userId, 'leadOffer');
  return true;
}

/**
 * A new lead routed to a first-to-claim group: offered to its members, or (the group has none)
 * assigned to the account owner. Answers whether it was offered.
 */
export async function offerNewLead(
  trx: Trx,
  ctx: AppContext,
  group: GroupRow,
  accountId: number,
  personId: number,
  eventId: number,
): Promise<boolean> {
  if (await openOffer(trx, ctx, group, { accountId, personId, eventId, fallbacks: 0 })) return true;
  await assignPerson(trx, ctx, accountId, personId, await accountOwnerId(trx, accountId));
  return false;
}

/**
 * Makes `userId` the person's agent (or, with `pondId`, puts the person in that pond with no agent)
 * through the people write path: peopleUpdated fires.
 */
export async function assignPerson(
  trx: Trx,
  ctx: AppContext,
  accountId: number,
  personId: number,
  userId: number | null,
  pondId: number | null = null,
): Promise<boolean> {
  const row = await findPersonInAccount(trx, accountId, personId);
  if (!row) return false;
  const before = stateFromRow(row);
  const after = {
    ...before,
    assignedUserId: pondId === null ? userId : null,
    assignedPondId: pondId,
  };
  await savePerson(trx, accountId, personId, before, after, isoSeconds(ctx.clock.now()));
  return true;
}

/**
 * The fallback pond: the lead joins the pond (no agent; every member sees it) and the pond's lead
 * agent, if any, is notified. False when the pond is gone.
 */
async function moveIntoPond(trx: Trx, ctx: AppContext, offer: OfferContext, pondId: number) {
  const pond = await findPond(trx, offer.accountId, pondId);
  if (!pond) return false;
  if (!(await assignPerson(trx, ctx, offer.accountId, offer.personId, null, pond.id))) return true;
  if (pond.user_id !== null) await notifyAbout(trx, ctx, offer, pond.user_id, 'newLead');
  return true;
}

async function userInAccount(trx: Trx, accountId: number, userId: number | null) {
  if (userId === null) return null;
  const row = await trx
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Where an unclaimed lead goes next: the group's default user, or its default group (offered
 * again if that one is first-to-claim, else its next member in rotation), or its default pond
 * (the lead joins the pond and stays there); after MAX_FALLBACKS moves, or when no fallback is
 * usable, the account owner.
 */
async function routeUnclaimed(trx: Trx, ctx: AppContext, offer: OfferRow): Promise<void> {
  const { account_id: accountId, person_id: personId } = offer;
  const next: OfferContext = { accountId, personId, eventId: null, fallbacks: offer.fallbacks + 1 };
  const group =
    offer.group_id === null
      ? undefined
      : await groupsOf(trx, accountId).where('id', '=', offer.group_id).executeTakeFirst();
  let userId: number | null = null;
  if (group && offer.fallbacks < MAX_FALLBACKS) {
    userId = await userInAccount(trx, accountId, group.default_user_id);
    const fallbackGroup =
      userId === null && group.default_group_id !== null
        ? await groupsOf(trx, accountId).where('id', '=', group.default_group_id).executeTakeFirst()
        : undefined;
    if (fallbackGroup?.distribution === 'first-to-claim') {
      if (await openOffer(trx, ctx, fallbackGroup, next)) return;
    } else if (fallbackGroup) {
      userId = await nextInRotation(trx, accountId, fallbackGroup.id);
    }
    if (userId === null && group.default_pond_id !== null)
      if (await moveIntoPond(trx, ctx, next, group.default_pond_id)) return;
  }
  userId ??= await accountOwnerId(trx, accountId);
  if (userId === null) return;
  if (await assignPerson(trx, ctx, accountId, personId, userId))
    await notifyAbout(trx, ctx, next, userId, 'newLead');
}

/**
 * Moves one expired offer on, in one transaction with the offer's closing: a crash before the
 * commit leaves the offer open and due, so the next worker round (after a restart too) does it.
 */
export async function expireOffer(ctx: AppContext, offerId: number): Promise<boolean> {
  const at = isoSeconds(ctx.clock.now());
  return ctx.db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('lead_offers')
      .selectAll()
      .where('id', '=', offerId)
      .where('status', '=', 'open')
      .where('expires_at', '<=', at);
    if (ctx.dialect === 'postgres') query = query.forUpdate().skipLocked();
    const offer = await query.executeTakeFirst();
    if (!offer || !(await closeOffer(trx, offer.id, 'expired', at))) return false;
    await routeUnclaimed(trx, ctx, offer);
    return true;
  });
}

/** One pass over the offers whose claim window has ended; answers how many moved on. */
export async function expireDueOffers(ctx: AppContext, limit = 100): Promise<number> {
  const due = await ctx.db
    .selectFrom('lead_offers')
    .select('id')
    .where('status', '=', 'open')
    .where('expires_at', '<=', isoSeconds(ctx.clock.now()))
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  let moved = 0;
  for (const { id } of due) {
    try {
      if (await expireOffer(ctx, id)) moved++;
    } catch (err) {
      ctx.log.error({ offerId: id, err }, 'moving an unclaimed lead on failed; retried next round');
    }
  }
  return moved;
}

/** Why a claim cannot be had: 409 when the offer went to someone else or ended, 404 when never made. */
async function refusal(trx: Trx, auth: AuthUser, personId: number): Promise<Error> {
  const latest = await latestOfferOf(trx, auth.accountId, personId);
  if (!latest) return notFound(`No offer of person ${personId}`);
  if (latest.status === 'claimed')
    return conflict(
      latest.claimed_by_id === auth.userId
        ? `You already claimed person ${personId}`
        : `Person ${personId} was already claimed by ${latest.claimed_by_name ?? 'another user'}`,
    );
  return conflict(`The claim window for person ${personId} has ended`);
}

/**
 * POST /v1/people/claim: the first claim of an open offer makes the caller the assigned agent
 * (peopleUpdated fires); every later or concurrent one is a 409.
 */
export async function claimPerson(ctx: AppContext, auth: AuthUser, personId: number) {
  await ctx.db.transaction().execute(async (trx) => {
    const offer = await openOfferOf(trx, auth.accountId, personId);
    if (!offer) throw await refusal(trx, auth, personId);
    const recipient = await trx
      .selectFrom('lead_offer_recipients')
      .select('ignored_at')
      .where('offer_id', '=', offer.id)
      .where('user_id', '=', auth.userId)
      .executeTakeFirst();
    if (!recipient) throw forbidden(`Person ${personId} was not offered to you`);
    if (recipient.ignored_at !== null)
      throw conflict(`You declined person ${personId} (ignoreUnclaimed)`);
    const at = isoSeconds(ctx.clock.now());
    if (!(await closeOffer(trx, offer.id, 'claimed', at, auth.userId)))
      throw await refusal(trx, auth, personId);
    await assignPerson(trx, ctx, auth.accountId, personId, auth.userId);
  });
}

/**
 * POST /v1/people/ignoreUnclaimed: the caller declines the offer. When every recipient has
 * declined, the offer is due at once and the worker moves it to the fallback.
 */
export async function ignoreOffer(ctx: AppContext, auth: AuthUser, personId: number) {
  await ctx.db.transaction().execute(async (trx) => {
    const offer = await openOfferOf(trx, auth.accountId, personId);
    const at = isoSeconds(ctx.clock.now());
    const declined =
      offer &&
      (await trx
        .updateTable('lead_offer_recipients')
        .set({ ignored_at: at })
        .where('offer_id', '=', offer.id)
        .where('user_id', '=', auth.userId)
        .where('ignored_at', 'is', null)
        .executeTakeFirst());
    if (!offer || !declined || Number(declined.numUpdatedRows) === 0)
      throw notFound(`No open offer of person ${personId} for you`);
    const waiting = await trx
      .selectFrom('lead_offer_recipients')
      .select('user_id')
      .where('offer_id', '=', offer.id)
      .where('ignored_at', 'is', null)
      .executeTakeFirst();
    if (!waiting)
      await trx
        .updateTable('lead_offers')
        .set({ expires_at: at })
        .where('id', '=', offer.id)
        .execute();
  });
}
