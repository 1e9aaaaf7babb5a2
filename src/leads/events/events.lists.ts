import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest } from '../../platform/http/errors.js';
import { visibleEventsQuery } from './events.repo.js';
import { canonicalEventType, EVENT_TYPES } from './events.types.js';

/** The sorts the event lists take besides id. */
export const EVENT_SORTS = {
  occurred: 'lead_events.occurred_at',
  created: 'lead_events.created_at',
};

function typeFilter(raw: string): string[] {
  const type = canonicalEventType(raw, false);
  if (!type)
    throw badRequest(`Unknown event type '${raw}'; use one of: ${EVENT_TYPES.join(', ')}`, [
      { field: 'type', message: 'unknown event type' },
    ]);
  // "Inquiry" is stored as whichever of the two it became.
  return raw.trim().toLowerCase() === 'inquiry' ? ['Property Inquiry', 'General Inquiry'] : [type];
}

/** The caller's lead events, of one person and one type when asked. */
export function eventsList(db: DbOrTrx, auth: AuthUser, q: { personId?: number; type?: string }) {
  let query = visibleEventsQuery(db, auth);
  if (q.personId !== undefined) query = query.where('lead_events.person_id', '=', q.personId);
  if (q.type) query = query.where('lead_events.type', 'in', typeFilter(q.type));
  return query;
}

/** One person's lead events (the caller has checked that they may see the person). */
export function personEventsList(
  db: DbOrTrx,
  accountId: number,
  personId: number,
  q: { type?: string },
) {
  let query = db
    .selectFrom('lead_events')
    .selectAll('lead_events')
    .where('lead_events.account_id', '=', accountId)
    .where('lead_events.person_id', '=', personId);
  if (q.type) query = query.where('lead_events.type', 'in', typeFilter(q.type));
  return query;
}
