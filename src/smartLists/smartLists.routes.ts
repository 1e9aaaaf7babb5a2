import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { AuthUser } from '../http/auth.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { IdParams, responses, toBool } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../http/pagination.js';
import type { DbOrTrx } from '../db/database.js';
import { isoSeconds } from '../time.js';
import { SmartList, SmartListCreateBody, SmartListListQuery, SmartListUpdateBody } from './smartLists.schemas.js';
import { canEditSmartList, findVisibleSmartList, type SmartListRow, visibleSmartLists } from './smartLists.repo.js';
import { containsText } from '../db/text-match.js';
import { containsNul } from '../http/body.js';
import { presentSmartList } from './smartLists.presenter.js';
import { filtersToStore } from './smartLists.filters.js';

const tags = ['smartLists'];

/** The list if the caller may change it: 404 when they cannot see it, 403 when they may only read it. */
async function editableSmartList(db: DbOrTrx, auth: AuthUser, id: number): Promise<SmartListRow> {
  const row = await findVisibleSmartList(db, auth, id);
  if (!row) throw notFound(`Smart list ${id}`);
  if (!canEditSmartList(auth, row)) throw forbidden('Only the Owner, an Admin or the user who owns this smart list may change it');
  return row;
}

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
    throw badRequest("'filters' must be a JSON object of GET /v1/people filters", [{ field: 'filters', message: 'must be a JSON object' }]);
  }
  if (containsNul(body.filters)) throw badRequest("'filters' must not contain NUL (\\u0000) characters");
}

/** A name is shown in every agent's list of lists: one made of spaces only is refused. */
function listName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest("'name' must not be blank", [{ field: 'name', message: 'must not be blank' }]);
  return trimmed;
}

/** /v1/smartLists: saved people searches. Open one with GET /v1/people?smartListId=N. */
export const smartListsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());

  app.get('/v1/smartLists', {
    schema: { tags, summary: 'List smart lists (yours and the shared ones of the account)', querystring: SmartListListQuery, response: responses({ 200: ListEnvelope('smartlists', SmartList) }) },
  }, async (request) => {
    const q = request.query;
    let query = visibleSmartLists(db, request.auth);
    if (q.name) query = query.where(containsText('name', q.name));
    if (q.userId !== undefined) query = query.where('user_id', '=', q.userId);
    if (q.isShared !== undefined) query = query.where('is_shared', '=', toBool(q.isShared) ? 1 : 0);
    const page = await paginate<SmartListRow>(request, {
      collection: 'smartlists',
      query,
      page: readPage(q),
      sort: readSort(q.sort, { name: 'name', created: 'created_at', updated: 'updated_at' }, 'id'),
      idExpression: 'id',
      publicUrl: ctx.config.publicUrl,
    });
    return { _metadata: page.metadata, smartlists: page.rows.map((row) => presentSmartList(row)) };
  });

  app.get('/v1/smartLists/:id', {
    schema: { tags, summary: 'Get a smart list', params: IdParams, response: responses({ 200: SmartList }) },
  }, async (request) => {
    const row = await findVisibleSmartList(db, request.auth, request.params.id);
    if (!row) throw notFound(`Smart list ${request.params.id}`);
    return presentSmartList(row);
  });

  app.post('/v1/smartLists', {
    preValidation: filtersFromText,
    schema: { tags, summary: 'Save a people search as a smart list (owned by you)', body: SmartListCreateBody, response: responses({ 201: SmartList }) },
  }, async (request, reply) => {
    const body = request.body;
    const name = listName(body.name);
    const filters = filtersToStore(body.filters ?? {});
    const at = now();
    const row = await db.transaction().execute((trx) =>
      trx
        .insertInto('smart_lists')
        .values({
          account_id: request.auth.accountId,
          user_id: request.auth.userId,
          name,
          filters,
          is_shared: toBool(body.isShared) ? 1 : 0,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return reply.code(201).send(presentSmartList(row));
  });

  app.put('/v1/smartLists/:id', {
    preValidation: filtersFromText,
    schema: { tags, summary: 'Update a smart list; `filters` replaces the saved filters whole (its owner, Owner or Admin)', params: IdParams, body: SmartListUpdateBody, response: responses({ 200: SmartList }) },
  }, async (request) => {
    const body = request.body;
    const name = body.name === undefined ? undefined : listName(body.name);
    const filters = body.filters === undefined ? undefined : filtersToStore(body.filters);
    const row = await db.transaction().execute(async (trx) => {
      const current = await editableSmartList(trx, request.auth, request.params.id);
      const changes = {
        name: name ?? current.name,
        filters: filters ?? current.filters,
        is_shared: body.isShared === undefined ? current.is_shared : toBool(body.isShared) ? 1 : 0,
      };
      if ((Object.keys(changes) as (keyof typeof changes)[]).every((k) => changes[k] === current[k])) return current;
      return trx.updateTable('smart_lists').set({ ...changes, updated_at: now() }).where('account_id', '=', current.account_id).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow();
    });
    return presentSmartList(row);
  });

  app.delete('/v1/smartLists/:id', {
    schema: { tags, summary: 'Delete a smart list (its owner, Owner or Admin)', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    await db.transaction().execute(async (trx) => {
      const row = await editableSmartList(trx, request.auth, request.params.id);
      await trx.deleteFrom('smart_lists').where('account_id', '=', request.auth.accountId).where('id', '=', row.id).execute();
    });
    return reply.code(204).send(null);
  });
};
