import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { badRequest } from '../http/errors.js';
import { JSON_TYPE, responses } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../http/pagination.js';
import { assertPersonVisible } from '../people/people.access.js';
import { findPersonDocument } from '../people/people.repo.js';
import { Person } from '../people/people.schemas.js';
import { EventBody, EventsListQuery, LeadEvent, PersonEventsQuery, PersonIdParams } from './events.schemas.js';
import { type LeadEventRow, presentEvent } from './events.presenter.js';
import { visibleEventsQuery } from './events.repo.js';
import { ingestEvent } from './events.service.js';
import { canonicalEventType, EVENT_TYPES } from './events.types.js';

const tags = ['events'];
const SORTABLE = { occurred: 'lead_events.occurred_at', created: 'lead_events.created_at' };

function typeFilter(raw: string): string[] {
  const type = canonicalEventType(raw, false);
  if (!type) throw badRequest(`Unknown event type '${raw}'; use one of: ${EVENT_TYPES.join(', ')}`, [{ field: 'type', message: 'unknown event type' }]);
  // "Inquiry" is stored as whichever of the two it became.
  return raw.trim().toLowerCase() === 'inquiry' ? ['Property Inquiry', 'General Inquiry'] : [type];
}


export const eventsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;

  app.post('/v1/events', {
    schema: {
      tags,
      summary: 'Send a lead or lead activity: dedups the person, records the event, routes and notifies (201 new person, 200 existing, 204 archived flow)',
      body: EventBody,
      response: responses({ 200: Person, 201: Person, 204: Type.Null() }),
    },
  }, async (request, reply) => {
    if (!request.body) throw badRequest('Request body is empty; send a lead event as a JSON object');
    const outcome = await ingestEvent(ctx, request.auth, request.body, request.system.name);
    if (outcome.status === 204) return reply.code(204).send(null);
    const document = await findPersonDocument(db, ctx.dialect, request.auth.accountId, outcome.personId, request.auth);
    // A lead matched to a person the caller may not see is still recorded; only the id is returned.
    if (document === undefined) return reply.code(outcome.status).send({ id: outcome.personId });
    return reply.code(outcome.status).type(JSON_TYPE).send(document);
  });

  app.get('/v1/events', {
    schema: { tags, summary: 'List lead events (filters personId, type, id)', querystring: EventsListQuery, response: responses({ 200: ListEnvelope('events', LeadEvent) }) },
  }, async (request) => {
    const q = request.query;
    let query = visibleEventsQuery(db, request.auth);
    if (q.personId !== undefined) query = query.where('lead_events.person_id', '=', q.personId);
    if (q.type) query = query.where('lead_events.type', 'in', typeFilter(q.type));
    const page = await paginate<LeadEventRow>(request, {
      collection: 'events', query, page: readPage(q), sort: readSort(q.sort, SORTABLE, 'lead_events.id'), idExpression: 'lead_events.id', publicUrl: ctx.config.publicUrl, db: ctx.db,
    });
    return { _metadata: page.metadata, events: page.rows.map(presentEvent) };
  });

  app.get('/v1/events/:personId', {
    schema: { tags, summary: "A person's lead events, newest first", params: PersonIdParams, querystring: PersonEventsQuery, response: responses({ 200: ListEnvelope('events', LeadEvent) }) },
  }, async (request) => {
    const q = request.query;
    await assertPersonVisible(db, request.auth, request.params.personId);
    let query = db.selectFrom('lead_events').selectAll('lead_events').where('lead_events.account_id', '=', request.auth.accountId).where('lead_events.person_id', '=', request.params.personId);
    if (q.type) query = query.where('lead_events.type', 'in', typeFilter(q.type));
    const page = await paginate<LeadEventRow>(request, {
      collection: 'events', query, page: readPage(q), sort: readSort(q.sort, SORTABLE, 'lead_events.id'), idExpression: 'lead_events.id', publicUrl: ctx.config.publicUrl,
    });
    return { _metadata: page.metadata, events: page.rows.map(presentEvent) };
  });
};
