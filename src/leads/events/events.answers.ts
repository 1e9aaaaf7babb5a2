import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { type ListRequest, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { assertPersonVisible } from '../../access/visibility.js';
import { findPersonDocument } from '../../contacts/people/people.repo.js';
import { type LeadEventRow, presentEvent } from './events.presenter.js';
import { EVENT_SORTS, personEventsList } from './events.lists.js';
import type { EventBody, PersonEventsQuery } from './events.schemas.js';
import { ingestEvent } from './events.service.js';

/**
 * What POST /v1/events answers (and the send_lead_event tool): 204 for an archived flow; else
 * the person's document as JSON text, or only their id when the caller may not see them (the
 * lead is recorded all the same).
 */
export type LeadEventAnswer =
  | { status: 204 }
  | { status: 200 | 201; document: string }
  | { status: 200 | 201; personId: number };

export async function sendLeadEvent(
  ctx: AppContext,
  auth: AuthUser,
  body: Static<typeof EventBody>,
  system: string | null,
): Promise<LeadEventAnswer> {
  const outcome = await ingestEvent(ctx, auth, body, system);
  if (outcome.status === 204) return outcome;
  const { status, personId } = outcome;
  const document = await findPersonDocument(ctx.db, ctx.dialect, auth.accountId, personId, auth);
  return document === undefined ? { status, personId } : { status, document };
}

/** A page of a person's lead events, newest first (GET /v1/events/:personId). */
export async function listPersonEvents(
  ctx: AppContext,
  auth: AuthUser,
  request: ListRequest,
  personId: number,
  q: Static<typeof PersonEventsQuery>,
) {
  await assertPersonVisible(ctx.db, auth, personId);
  const page = await paginate<LeadEventRow>(request, {
    collection: 'events',
    query: personEventsList(ctx.db, auth.accountId, personId, q),
    page: readPage(q),
    sort: readSort(q.sort, EVENT_SORTS, 'lead_events.id'),
    idExpression: 'lead_events.id',
    publicUrl: ctx.config.publicUrl,
  });
  return { _metadata: page.metadata, events: page.rows.map(presentEvent) };
}
