import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { badRequest } from '../../platform/http/errors.js';
import { JSON_TYPE, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { Person } from '../../contacts/people/people.schemas.js';
import {
  EventBody,
  EventsListQuery,
  LeadEvent,
  PersonEventsQuery,
  PersonIdParams,
} from './events.schemas.js';
import { type LeadEventRow, presentEvent } from './events.presenter.js';
import { EVENT_SORTS, eventsList } from './events.lists.js';
import { listPersonEvents, sendLeadEvent } from './events.answers.js';

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
      const answer = await sendLeadEvent(ctx, request.auth, request.body, request.system.name);
      if (answer.status === 204) return reply.code(204).send(null);
      if ('personId' in answer) return reply.code(answer.status).send({ id: answer.personId });
      return reply.code(answer.status).type(JSON_TYPE).send(answer.document);
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
    async (request) =>
      listPersonEvents(ctx, request.auth, request, request.params.personId, request.query),
  );
};
