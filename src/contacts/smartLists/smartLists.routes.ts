import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { IdParams, responses, toBool } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  SmartList,
  SmartListCreateBody,
  SmartListListQuery,
  SmartListUpdateBody,
} from './smartLists.schemas.js';
import { findVisibleSmartList } from './smartLists.repo.js';
import { changeSmartList, createSmartList, removeSmartList } from './smartLists.service.js';
import { listSmartLists } from './smartLists.answers.js';
import { containsNul } from '../../platform/http/body.js';
import { presentSmartList } from './smartLists.presenter.js';
import { filtersToStore } from './smartLists.filters.js';

const tags = ['smartLists'];

/**
 * A form-encoded body carries `filters` as JSON text: read it as the object it stands for, before
 * the schema checks it like a JSON body's.
 */
async function filtersFromText(request: FastifyRequest): Promise<void> {
  const body = request.body as Record<string, unknown> | null | undefined;
  if (!body || typeof body !== 'object' || typeof body.filters !== 'string') return;
  try {
    body.filters = JSON.parse(body.filters);
  } catch {
    throw badRequest("'filters' must be a JSON object of GET /v1/people filters", [
      { field: 'filters', message: 'must be a JSON object' },
    ]);
  }
  if (containsNul(body.filters))
    throw badRequest("'filters' must not contain NUL (\\u0000) characters");
}

/** A name is shown in every agent's list of lists: one made of spaces only is refused. */
function listName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed)
    throw badRequest("'name' must not be blank", [{ field: 'name', message: 'must not be blank' }]);
  return trimmed;
}

/** /v1/smartLists: saved people searches. Open one with GET /v1/people?smartListId=N. */
export const smartListsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());

  app.get(
    '/v1/smartLists',
    {
      schema: {
        tags,
        summary: 'List smart lists (yours and the shared ones of the account)',
        querystring: SmartListListQuery,
        response: responses({ 200: ListEnvelope('smartlists', SmartList) }),
      },
    },
    async (request) => listSmartLists(ctx, request.auth, request, request.query),
  );

  app.get(
    '/v1/smartLists/:id',
    {
      schema: {
        tags,
        summary: 'Get a smart list',
        params: IdParams,
        response: responses({ 200: SmartList }),
      },
    },
    async (request) => {
      const row = await findVisibleSmartList(db, request.auth, request.params.id);
      if (!row) throw notFound(`Smart list ${request.params.id}`);
      return presentSmartList(row);
    },
  );

  app.post(
    '/v1/smartLists',
    {
      preValidation: filtersFromText,
      schema: {
        tags,
        summary: 'Save a people search as a smart list (owned by you)',
        body: SmartListCreateBody,
        response: responses({ 201: SmartList }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const fields = {
        name: listName(body.name),
        filters: filtersToStore(body.filters ?? {}),
        isShared: toBool(body.isShared) ?? false,
      };
      const row = await createSmartList(db, request.auth, fields, now());
      return reply.code(201).send(presentSmartList(row));
    },
  );

  app.put(
    '/v1/smartLists/:id',
    {
      preValidation: filtersFromText,
      schema: {
        tags,
        summary:
          'Update a smart list; `filters` replaces the saved filters whole (its owner, Owner or Admin)',
        params: IdParams,
        body: SmartListUpdateBody,
        response: responses({ 200: SmartList }),
      },
    },
    async (request) => {
      const body = request.body;
      const fields = {
        name: body.name === undefined ? undefined : listName(body.name),
        filters: body.filters === undefined ? undefined : filtersToStore(body.filters),
        isShared: toBool(body.isShared),
      };
      const row = await changeSmartList(db, request.auth, request.params.id, fields, now);
      return presentSmartList(row);
    },
  );

  app.delete(
    '/v1/smartLists/:id',
    {
      schema: {
        tags,
        summary: 'Delete a smart list (its owner, Owner or Admin)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await removeSmartList(db, request.auth, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
