import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import type { AppContext } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { Type } from '@sinclair/typebox';
import { IdParams, JSON_TYPE, responses, toBool } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { loadDefinitions } from '../customFields/customFields.values.js';
import { isoSeconds } from '../../platform/time.js';
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
import {
  type FieldSelection,
  type PersonRow,
  presentPerson,
  STANDARD_FIELDS,
} from './people.presenter.js';
import { findMatchingPerson } from './people.matching.js';
import { historicalCreatedAt } from './people.input.js';
import { findPersonInAccount, findPersonDocument, findVisiblePerson } from './people.repo.js';
import { createOrMergePerson, removeVisiblePerson, updateVisiblePerson } from './people.service.js';
import { peoplePage } from './people.list-page.js';
import { assertGate, Gate } from '../../access/gates.js';
import { withSmartList } from '../smartLists/smartLists.filters.js';
import { underListBudget } from '../../platform/db/query-budget.js';

const tags = ['people'];

/** Reads `fields`: absent → the standard fields; `allFields` → those plus custom fields; a list → just those. */
async function fieldSelection(
  ctx: AppContext,
  accountId: number,
  fields: string | undefined,
): Promise<FieldSelection> {
  if (!fields) return { only: null, customFields: [] };
  const names = fields
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const all = names.includes('allFields');
  const definitions = await loadDefinitions(ctx.db, accountId, 'person');
  if (all) return { only: null, customFields: definitions };
  const known = new Set<string>([...STANDARD_FIELDS, ...definitions.map((d) => d.name)]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) throw badRequest(`Unknown field(s) in 'fields': ${unknown.join(', ')}`);
  return {
    only: new Set(['id', ...names]),
    customFields: definitions.filter((d) => names.includes(d.name)),
  };
}

async function loadVisible(
  ctx: AppContext,
  request: FastifyRequest,
  id: number,
): Promise<PersonRow> {
  const row = await findVisiblePerson(ctx.db, request.auth, id);
  if (!row) throw notFound(`Person ${id}`);
  return row;
}

export const peopleRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db, config } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  /** The person just written, as GET would show them (the caller's transaction has committed). */
  const respondWith = async (request: FastifyRequest, reply: FastifyReply, id: number) => {
    const document = await findPersonDocument(db, ctx.dialect, request.auth.accountId, id);
    if (document === undefined) throw notFound(`Person ${id}`); // deleted by another request meanwhile
    return reply.type(JSON_TYPE).send(document);
  };

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
    async (request, reply) => {
      // nextLink repeats the request's own query, smartListId included, so later pages apply the list again.
      const filters = await withSmartList(db, request.auth, request.query);
      const selection = request.query.fields
        ? await fieldSelection(ctx, request.auth.accountId, request.query.fields)
        : null;
      const page = await underListBudget(
        db,
        ctx.dialect,
        config.listQueryBudgetMs,
        (listDb, deadline) =>
          peoplePage(ctx, request, filters, { db: listDb, deadline }, selection),
      );
      if (!selection) return reply.type(JSON_TYPE).send(page);
      return page;
    },
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
    async (request, reply) => {
      if (!request.query.fields) {
        const document = await findPersonDocument(
          db,
          ctx.dialect,
          request.auth.accountId,
          request.params.id,
          request.auth,
        );
        if (document === undefined) throw notFound(`Person ${request.params.id}`);
        return reply.type(JSON_TYPE).send(document);
      }
      const row = await loadVisible(ctx, request, request.params.id);
      return presentPerson(
        row,
        await fieldSelection(ctx, request.auth.accountId, request.query.fields),
      );
    },
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
      const { createdAt, ...body } = request.body ?? {};
      const result = await createOrMergePerson(db, request.auth, body, {
        deduplicate: toBool(request.query.deduplicate) ?? false,
        at: now(),
        createdAt:
          createdAt === undefined ? undefined : historicalCreatedAt(createdAt, ctx.clock.now()),
      });
      return respondWith(request, reply.code(result.created ? 201 : 200), result.id);
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
      const id = request.params.id;
      await updateVisiblePerson(db, request.auth, id, request.body ?? {}, {
        mergeTags: toBool(request.query.mergeTags),
        at: now,
        ctx,
      });
      return respondWith(request, reply, id);
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
