import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { badRequest } from '../../platform/http/errors.js';
import { IdParams, JSON_TYPE, responses, toBool } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import {
  CheckDuplicateQuery,
  CheckDuplicateResult,
  PeopleListQuery,
  Person,
  PersonBody,
  PersonCreateBody,
  PersonCreateQuery,
  PersonGetQuery,
  PersonUpdateQuery,
} from './people.schemas.js';
import { findMatchingPerson } from './people.matching.js';
import { findPersonInAccount, findVisiblePerson } from './people.repo.js';
import { removeVisiblePerson } from './people.service.js';
import {
  createPersonAnswer,
  listPeople,
  personAnswer,
  updatePersonAnswer,
} from './people.answers.js';
import { assertGate, Gate } from '../../access/gates.js';

const tags = ['people'];

export const peopleRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  /** Sends a person's document (JSON text) as it is, or serialises the presented fields. */
  const send = (reply: FastifyReply, answer: string | object) =>
    typeof answer === 'string' ? reply.type(JSON_TYPE).send(answer) : answer;

  app.get(
    '/v1/people',
    {
      schema: {
        tags,
        summary: 'Search people (filters combine with AND)',
        querystring: PeopleListQuery,
        response: responses({ 200: ListEnvelope('people', Person) }),
      },
    },
    async (request, reply) =>
      send(reply, await listPeople(ctx, request.auth, request, request.query)),
  );

  app.get(
    '/v1/people/checkDuplicate',
    {
      schema: {
        tags,
        summary: 'Is there already a person with this email or phone?',
        querystring: CheckDuplicateQuery,
        response: responses({ 200: CheckDuplicateResult }),
      },
    },
    async (request) => {
      const { email, phone } = request.query;
      if (!email && !phone) throw badRequest("Give 'email' or 'phone' to check");
      const match = await findMatchingPerson(
        db,
        request.auth.accountId,
        email ? [email] : [],
        phone ? [phone] : [],
      );
      if (!match) return { found: false, matchedBy: null, assignedTo: null, personId: null };
      // An Agent or Lender learns that the contact exists and who owns it, but not the id of a
      // person they may not open.
      const row = await findPersonInAccount(db, request.auth.accountId, match.personId);
      const visible = await findVisiblePerson(db, request.auth, match.personId);
      return {
        found: true,
        matchedBy: match.matchedBy,
        assignedTo: row?.assigned_name ?? null,
        personId: visible ? match.personId : null,
      };
    },
  );

  app.get(
    '/v1/people/:id',
    {
      schema: {
        tags,
        summary: 'Get a person',
        params: IdParams,
        querystring: PersonGetQuery,
        response: responses({ 200: Person }),
      },
    },
    async (request, reply) =>
      send(reply, await personAnswer(ctx, request.auth, request.params.id, request.query.fields)),
  );

  app.post(
    '/v1/people',
    {
      schema: {
        tags,
        summary: 'Create a person (runs no lead automation; send leads to POST /v1/events)',
        querystring: PersonCreateQuery,
        body: PersonCreateBody,
        response: responses({ 200: Person, 201: Person }),
      },
    },
    async (request, reply) => {
      const { created, document } = await createPersonAnswer(
        ctx,
        request.auth,
        request.body ?? {},
        request.query,
      );
      return send(reply.code(created ? 201 : 200), document);
    },
  );

  app.put(
    '/v1/people/:id',
    {
      schema: {
        tags,
        summary:
          'Update a person: only the fields sent change; a custom field set to null is deleted',
        params: IdParams,
        querystring: PersonUpdateQuery,
        body: PersonBody,
        response: responses({ 200: Person }),
      },
    },
    async (request, reply) => {
      const { auth, params, body, query } = request;
      const mergeTags = toBool(query.mergeTags);
      return send(reply, await updatePersonAnswer(ctx, auth, params.id, body ?? {}, mergeTags));
    },
  );

  app.delete(
    '/v1/people/:id',
    {
      schema: {
        tags,
        summary: 'Delete a person and all their data',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await removeVisiblePerson(db, request.auth, request.params.id, () =>
        // After the lookup: an unseen person stays a 404.
        assertGate(Gate.personDeleter, request.auth),
      );
      return reply.code(204).send(null);
    },
  );
};
