import type { Static } from '@sinclair/typebox';
import { responsibleAgentId } from '../ponds/ponds.repo.js';
import type { AppContext } from '../context.js';
import type { Trx } from '../db/database.js';
import type { AuthUser } from '../http/auth.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { toBool } from '../http/schemas.js';
import { isoSeconds, parseTimestamp } from '../time.js';
import { emit } from '../webhooks/outbox.js';
import { touchLastActivity } from '../people/people.activity.js';
import { findMatchingPerson } from '../people/people.matching.js';
import { findPersonInAccount, findVisiblePerson } from '../people/people.repo.js';
import {
  stateFromRow,
  type PersonState,
  emptyPersonState,
  mergePersonStates,
} from '../people/people.state.js';
import { applyPersonInput, cleanSource } from '../people/people.input.js';
import { createPerson, savePerson } from '../people/people.service.js';
import {
  accountOwnerId,
  findLeadFlow,
  type LeadFlowRow,
  routeNewLead,
} from '../leadFlows/leadFlows.service.js';
import type { GroupRow } from '../groups/groups.repo.js';
import { offerNewLead } from '../claims/claims.service.js';
import { notifyAgent } from '../notifications/notifications.service.js';
import { queueEnrichment } from '../enrichment/enrichment.service.js';
import { startActionPlan } from '../actionPlans/actionPlans.service.js';
import type { EventBody } from './events.schemas.js';
import {
  canonicalEventType,
  EVENT_TYPES,
  type EventType,
  PLAN_TRIGGERING_TYPES,
} from './events.types.js';
import {
  addIdentityKeys,
  claimIdentityKeys,
  IdentityTakenError,
  type IdentityKey,
  insertEvent,
  isRetryableLeadError,
} from './events.repo.js';

export type EventInput = Static<typeof EventBody>;

/** Events that happened longer ago than this are history: recorded, but they run no automation. */
const HISTORICAL_AFTER_MS = 24 * 60 * 60 * 1000;
const MAX_ATTEMPTS = 5;

export type LeadOutcome = { status: 204 } | { status: 200 | 201; personId: number };

interface PreparedLead {
  type: EventType;
  source: string;
  occurred: string;
  historical: boolean;
  personId: number | undefined;
  personInput: Omit<NonNullable<EventInput['person']>, 'id'>;
  flow: LeadFlowRow | undefined;
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const hasContent = (section: object | undefined) =>
  !!section && Object.values(section).some((v) => !isBlank(v));

function parseOccurred(raw: string | undefined, nowMs: number): number {
  if (raw === undefined || raw.trim() === '') return nowMs;
  const ms = parseTimestamp(raw);
  if (ms === null)
    throw badRequest(`occurredAt '${raw}' is not an ISO 8601 date-time`, [
      { field: 'occurredAt', message: 'invalid date-time' },
    ]);
  return ms;
}

function identityKeys(state: PersonState): IdentityKey[] {
  const emails = new Set(state.emails.map((e) => e.value.toLowerCase()));
  const phones = new Set(state.phones.map((p) => p.normalized).filter(Boolean));
  return [
    ...[...emails].map((value): IdentityKey => ({ kind: 'email', value })),
    ...[...phones].map((value): IdentityKey => ({ kind: 'phone', value })),
  ];
}

/** Property and campaign sections as stored: blank values dropped, aliases (zip, name) folded in. */
function cleanSection<T extends Record<string, unknown>>(
  section: T | undefined,
  aliases: Record<string, string> = {},
): string | null {
  if (!hasContent(section)) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section!)) {
    if (isBlank(value)) continue;
    const name = aliases[key] ?? key;
    if (out[name] !== undefined) continue;
    out[name] =
      key === 'forRent'
        ? toBool(value as string)
        : typeof value === 'string'
          ? value.trim()
          : value;
  }
  return JSON.stringify(out);
}

async function prepare(
  ctx: AppContext,
  accountId: number,
  body: EventInput,
): Promise<PreparedLead> {
  const type = canonicalEventType(body.type, hasContent(body.property));
  if (!type) {
    throw badRequest(`Unknown event type '${body.type}'; use one of: ${EVENT_TYPES.join(', ')}`, [
      { field: 'type', message: 'unknown event type' },
    ]);
  }
  const { id: personId, ...personInput } = body.person ?? {};
  const identifiable =
    personId !== undefined ||
    (personInput.emails?.length ?? 0) > 0 ||
    (personInput.phones?.length ?? 0) > 0 ||
    [personInput.name, personInput.firstName, personInput.lastName].some((v) => !isBlank(v));
  if (!identifiable) {
    throw badRequest(
      "The event's person cannot be identified: send person.id, an email, a phone or a name",
      [{ field: 'person', message: 'no way to identify the person' }],
    );
  }
  const nowMs = ctx.clock.now();
  const occurredMs = parseOccurred(body.occurredAt, nowMs);
  const source = cleanSource(body.source ?? personInput.source ?? '');
  if (source && personInput.source === undefined) personInput.source = source;
  if (body.sourceUrl && personInput.sourceUrl === undefined) personInput.sourceUrl = body.sourceUrl;
  return {
    type,
    source,
    occurred: isoSeconds(occurredMs),
    historical: occurredMs < nowMs - HISTORICAL_AFTER_MS,
    personId,
    personInput,
    flow: source ? await findLeadFlow(ctx.db, accountId, source) : undefined,
  };
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
): Promise<LeadOutcome> {
  const lead = await prepare(ctx, auth.accountId, body);
  if (lead.flow?.status === 'Archived') return { status: 204 };
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db
        .transaction()
        .execute((trx) => ingestOnce(trx, ctx, auth, body, lead, system));
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
      createdVia: 'API',
      at,
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
  return { status: created ? 201 : 200, personId };
}
