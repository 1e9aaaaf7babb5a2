import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { badRequest } from '../../platform/http/errors.js';
import { JSON_TYPE, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { assertPersonVisible } from '../../access/visibility.js';
import { findPersonDocument } from '../../contacts/people/people.repo.js';
import { Person } from '../../contacts/people/people.schemas.js';
import {
  EventBody,
  EventsListQuery,
  LeadEvent,
  PersonEventsQuery,
  PersonIdParams,
} from './events.schemas.js';
import { type LeadEventRow, presentEvent } from './events.presenter.js';
import { EVENT_SORTS, eventsList, personEventsList } from './events.lists.js';
import { ingestEvent } from './events.service.js';

const tags = ['events'];
export const eventsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.post(
    '/v1/events',
    {
      schema: {
        tags,
        summary:
          'Send a lead or lead activity: dedups the person, records the event, routes and notifies (201 new person, 200 existing, 204 archived flow)',
        body: EventBody,
        response: responses({ 200: Person, 201: Person, 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      if (!request.body)
        throw badRequest('Request body is empty; send a lead event as a JSON object');
      const outcome = await ingestEvent(ctx, request.auth, request.body, request.system.name);
      if (outcome.status === 204) return reply.code(204).send(null);
      const document = await findPersonDocument(
        db,
        ctx.dialect,
        request.auth.accountId,
        outcome.personId,
        request.auth,
      );
      // A lead matched to a person the caller may not see is still recorded; only the id is returned.
      if (document === undefined) return reply.code(outcome.status).send({ id: outcome.personId });
      return reply.code(outcome.status).type(JSON_TYPE).send(document);
    },
  );

  app.get(
    '/v1/events',
    {
      schema: {
        tags,
        summary: 'List lead events (filters personId, type, id)',
        querystring: EventsListQuery,
        response: responses({ 200: ListEnvelope('events', LeadEvent) }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await paginate<LeadEventRow>(request, {
        collection: 'events',
        query: eventsList(db, request.auth, q),
        page: readPage(q),
        sort: readSort(q.sort, EVENT_SORTS, 'lead_events.id'),
        idExpression: 'lead_events.id',
        publicUrl: ctx.config.publicUrl,
        db: ctx.db,
      });
      return { _metadata: page.metadata, events: page.rows.map(presentEvent) };
    },
  );

  app.get(
    '/v1/events/:personId',
    {
      schema: {
        tags,
        summary: "A person's lead events, newest first",
        params: PersonIdParams,
        querystring: PersonEventsQuery,
        response: responses({ 200: ListEnvelope('events', LeadEvent) }),
      },
    },
    async (request) => {
      const q = request.query;
      const { auth, params } = request;
      await assertPersonVisible(db, auth, params.personId);
      const page = await paginate<LeadEventRow>(request, {
        collection: 'events',
        query: personEventsList(db, auth.accountId, params.personId, q),
        page: readPage(q),
        sort: readSort(q.sort, EVENT_SORTS, 'lead_events.id'),
        idExpression: 'lead_events.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, events: page.rows.map(presentEvent) };
    },
  );
};
