import { responsibleAgentId } from '../../contacts/people/assignment.js';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import { isoSeconds } from '../../platform/time.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { touchLastActivity } from '../../contacts/people/people.activity.js';
import { findMatchingPerson } from '../../contacts/people/people.matching.js';
import { findPersonInAccount, findVisiblePerson } from '../../contacts/people/people.repo.js';
import {
  stateFromRow,
  type PersonState,
  emptyPersonState,
  mergePersonStates,
} from '../../contacts/people/people.state.js';
import { applyPersonInput } from '../../contacts/people/people.input.js';
import { createPerson, savePerson } from '../../contacts/people/people.service.js';
import { accountOwnerId, routeNewLead } from '../leadFlows/leadFlows.service.js';
import type { GroupRow } from '../groups/groups.repo.js';
import { offerNewLead } from '../claims/claims.service.js';
import { notifyAgent } from '../../accounts/notifications/notifications.service.js';
import { queueEnrichment } from '../enrichment/enrichment.service.js';
import { startActionPlan } from '../../marketing/actionPlans/actionPlans.service.js';
import { cleanSection, type EventInput, type PreparedLead, prepareLead } from './events.prepare.js';
import { PLAN_TRIGGERING_TYPES } from './events.types.js';
import {
  addIdentityKeys,
  claimIdentityKeys,
  IdentityTakenError,
  type IdentityKey,
  insertEvent,
  isRetryableLeadError,
} from './events.repo.js';

const MAX_ATTEMPTS = 5;

export type LeadOutcome = { status: 204 } | { status: 200 | 201; personId: number };

/** How a lead that did not come through POST /v1/events differs (leads by email). */
export interface IngestOptions {
  /** the person's createdVia when the lead makes one (default `API`) */
  createdVia?: string;
  /** the new person's `created` (historic parsing: the email's date); default now */
  createdAt?: string;
  /** history whatever its age: recorded, no routing, notification or action plan */
  historical?: boolean;
  /** runs in the lead's transaction once its event is recorded, so both commit or neither */
  within?: (
    trx: Trx,
    recorded: { personId: number; eventId: number; created: boolean },
  ) => Promise<void>;
}

function identityKeys(state: PersonState): IdentityKey[] {
  const emails = new Set(state.emails.map((e) => e.value.toLowerCase()));
  const phones = new Set(state.phones.map((p) => p.normalized).filter(Boolean));
  return [
    ...[...emails].map((value): IdentityKey => ({ kind: 'email', value })),
    ...[...phones].map((value): IdentityKey => ({ kind: 'phone', value })),
  ];
}

/**
 * POST /v1/events: finds or creates the person, records the event, and for a live (not historical)
 * lead runs the automations — routing and stage for a new lead, the agent's notification, the flow's
 * action plan, social-profile enrichment. One transaction; when a concurrent request created the same
 * new lead first (the identity-key UNIQUE index says so), the whole transaction runs again and
 * matches that person instead.
 */
export async function ingestEvent(
  ctx: AppContext,
  auth: AuthUser,
  body: EventInput,
  system: string | null,
  options: IngestOptions = {},
): Promise<LeadOutcome> {
  const lead = await prepareLead(ctx, auth.accountId, body);
  if (options.historical) lead.historical = true;
  if (lead.flow?.status === 'Archived') return { status: 204 };
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db
        .transaction()
        .execute((trx) => ingestOnce(trx, ctx, auth, body, lead, system, options));
    } catch (err) {
      if (!isRetryableLeadError(err)) throw err;
      if (attempt >= MAX_ATTEMPTS)
        throw conflict('This lead is being changed by several requests at once; send it again');
    }
  }
}

async function lockPerson(trx: Trx, ctx: AppContext, personId: number): Promise<void> {
  // Two events for the same person must not both merge from the same "before" state.
  if (ctx.dialect === 'postgres')
    await trx.selectFrom('people').select('id').where('id', '=', personId).forUpdate().execute();
}

async function ingestOnce(
  trx: Trx,
  ctx: AppContext,
  auth: AuthUser,
  body: EventInput,
  lead: PreparedLead,
  system: string | null,
  options: IngestOptions,
): Promise<LeadOutcome> {
  const { accountId } = auth;
  const at = isoSeconds(ctx.clock.now());
  const incoming = await applyPersonInput(trx, accountId, emptyPersonState(), lead.personInput);

  let existingId: number | null;
  if (lead.personId !== undefined) {
    if (!(await findVisiblePerson(trx, auth, lead.personId)))
      throw notFound(`Person ${lead.personId}`);
    existingId = lead.personId;
  } else {
    const match = await findMatchingPerson(
      trx,
      accountId,
      incoming.emails.map((e) => e.value),
      incoming.phones.map((p) => p.value),
    );
    existingId = match?.personId ?? null;
  }

  let personId: number;
  let state: PersonState;
  let offerTo: GroupRow | undefined;
  if (existingId !== null) {
    await lockPerson(trx, ctx, existingId);
    const row = await findPersonInAccount(trx, accountId, existingId);
    // Deleted by a concurrent request since it was matched: run the lead again from the start.
    if (!row) throw new IdentityTakenError();
    const before = stateFromRow(row);
    state = mergePersonStates(before, incoming);
    await savePerson(trx, accountId, existingId, before, state, at);
    const known = new Set(identityKeys(before).map((k) => `${k.kind}:${k.value}`));
    await addIdentityKeys(
      trx,
      accountId,
      existingId,
      identityKeys(state).filter((k) => !known.has(`${k.kind}:${k.value}`)),
    );
    personId = existingId;
  } else {
    state = { ...incoming };
    if (!lead.historical) {
      // Only new, live leads are routed; what the sender set explicitly wins over the flow.
      if (state.assignedUserId === null) {
        const route = await routeNewLead(trx, accountId, lead.flow);
        if (route.offerTo) offerTo = route.offerTo;
        else state.assignedUserId = route.userId;
      }
      if (state.stageId === null && lead.flow?.stage_id) state.stageId = lead.flow.stage_id;
    }
    personId = await createPerson(trx, accountId, state, {
      createdVia: options.createdVia ?? 'API',
      at: options.createdAt ?? at,
      lastActivity: lead.occurred,
    });
    await claimIdentityKeys(trx, accountId, personId, identityKeys(state));
  }
  const created = existingId === null;

  const eventId = await insertEvent(trx, {
    account_id: accountId,
    person_id: personId,
    created_at: at,
    updated_at: at,
    occurred_at: lead.occurred,
    type: lead.type,
    source: lead.source,
    system: system ?? '',
    message: body.message ?? '',
    description: body.description ?? '',
    note_id: null,
    property: cleanSection(body.property, { zip: 'code' }),
    property_search: cleanSection(body.propertySearch),
    campaign: cleanSection(body.campaign, { name: 'campaign' }),
    page_title: body.pageTitle ?? '',
    page_url: body.pageUrl ?? '',
    page_referrer: body.pageReferrer ?? '',
    page_duration: body.pageDuration ?? null,
    source_url: body.sourceUrl ?? '',
  });
  await emit(trx, accountId, 'eventsCreated', [eventId]);
  if (!created) await touchLastActivity(trx, accountId, personId, lead.occurred);

  if (!lead.historical) {
    // A lead offered to a first-to-claim group notifies each member instead of one agent.
    const offered =
      offerTo && (await offerNewLead(trx, ctx, offerTo, accountId, personId, eventId));
    const agentId = offered
      ? null
      : ((await responsibleAgentId(trx, accountId, state)) ??
        (await accountOwnerId(trx, accountId)));
    if (agentId !== null) {
      await notifyAgent(trx, ctx, {
        accountId,
        userId: agentId,
        personId,
        eventId,
        kind: created ? 'newLead' : 'returningLead',
        personName: state.name,
        eventType: lead.type,
        source: lead.source,
        message: body.message ?? '',
      });
    }
    if (created && lead.flow?.action_plan_id && PLAN_TRIGGERING_TYPES.has(lead.type)) {
      await startActionPlan(trx, accountId, personId, lead.flow.action_plan_id, at);
    }
    if (created) await queueEnrichment(trx, ctx, accountId, personId);
  }
  await options.within?.(trx, { personId, eventId, created });
  return { status: created ? 201 : 200, personId };
}
