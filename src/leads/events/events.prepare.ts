import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import { badRequest } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import { isoSeconds, parseTimestamp } from '../../platform/time.js';
import { cleanSource } from '../../contacts/people/people.input.js';
import { findLeadFlow, type LeadFlowRow } from '../leadFlows/leadFlows.service.js';
import type { EventBody } from './events.schemas.js';
import { canonicalEventType, EVENT_TYPES, type EventType } from './events.types.js';

// An event body checked and read before its transaction: type, occurrence, source and lead flow.

export type EventInput = Static<typeof EventBody>;

/** Events that happened longer ago than this are history: recorded, but they run no automation. */
const HISTORICAL_AFTER_MS = 24 * 60 * 60 * 1000;

export interface PreparedLead {
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

/** Property and campaign sections as stored: blank values dropped, aliases (zip, name) folded in. */
export function cleanSection<T extends Record<string, unknown>>(
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

export async function prepareLead(
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
