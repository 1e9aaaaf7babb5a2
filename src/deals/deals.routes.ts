import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../platform/http/route-types.js';
import { notFound } from '../platform/http/errors.js';
import { IdParams, responses, toBool } from '../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../platform/http/pagination.js';
import { isoSeconds } from '../platform/time.js';
import { Deal, DealCreateBody, DealListQuery, DealUpdateBody } from './deals.schemas.js';
import {
  type DealRow,
  findVisibleDeal,
  linksOf,
  presentDeal,
  visibleDealsQuery,
} from './deals.repo.js';
import { assertGate, Gate } from '../access/gates.js';
import { createDeal, softDeleteDeal, updateDeal } from './deals.service.js';

const tags = ['deals'];

const SORTABLE: Record<string, string> = {
  created: 'deals.created_at',
  updated: 'deals.updated_at',
  name: 'deals.name',
  price: 'coalesce(deals.price, -1)',
  orderWeight: 'deals.order_weight',
  projectedCloseDate: "coalesce(deals.projected_close_date, '')",
  enteredStageAt: 'deals.entered_stage_at',
};

/** `/v1/deals`: deals moving through pipelines. Agents and Lenders see only the deals tied to them. */
export const dealsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const respond = async (request: FastifyRequest, id: number) => {
    const row = (await findVisibleDeal(db, request.auth, id))!;
    return presentDeal(row, await linksOf(db, request.auth.accountId, [id]));
  };
  const loadVisible = async (request: FastifyRequest, id: number) => {
    const row = await findVisibleDeal(db, request.auth, id);
    if (!row) throw notFound(`Deal ${id}`);
    return row;
  };

  app.get(
    '/v1/deals',
    {
      schema: {
        tags,
        summary: 'List deals (soft-deleted ones only with includeDeleted=1 or status=Deleted)',
        querystring: DealListQuery,
        response: responses({ 200: ListEnvelope('deals', Deal) }),
      },
    },
    async (request) => {
      const q = request.query;
      const accountId = request.auth.accountId;
      const filters = { ...q, includeDeleted: toBool(q.includeDeleted) };
      const query = visibleDealsQuery(db, request.auth, filters);
      const page = await paginate<DealRow>(request, {
        collection: 'deals',
        query,
        page: readPage(q),
        sort: readSort(q.sort, SORTABLE, 'deals.id'),
        idExpression: 'deals.id',
        publicUrl: ctx.config.publicUrl,
      });
      const links = await linksOf(
        db,
        accountId,
        page.rows.map((r) => r.id),
      );
      return { _metadata: page.metadata, deals: page.rows.map((row) => presentDeal(row, links)) };
    },
  );

  app.get(
    '/v1/deals/:id',
    {
      schema: {
        tags,
        summary: 'Get a deal (a soft-deleted deal shows status Deleted)',
        params: IdParams,
        response: responses({ 200: Deal }),
      },
    },
    async (request) => {
      const row = await loadVisible(request, request.params.id);
      return presentDeal(row, await linksOf(db, request.auth.accountId, [row.id]));
    },
  );

  app.post(
    '/v1/deals',
    {
      config: { gate: Gate.dealWriter },
      schema: {
        tags,
        summary: 'Create a deal in a pipeline stage (Owner, Admin, Agent)',
        body: DealCreateBody,
        response: responses({ 201: Deal }),
      },
    },
    async (request, reply) => {
      const id = await createDeal(db, request.auth, request.body, now());
      return reply.code(201).send(await respond(request, id));
    },
  );

  app.put(
    '/v1/deals/:id',
    {
      schema: {
        tags,
        summary: 'Update a deal: only the fields sent change (Owner, Admin, Agent)',
        params: IdParams,
        body: DealUpdateBody,
        response: responses({ 200: Deal }),
      },
    },
    async (request) => {
      // the gate is checked after the lookup: an unseen deal stays a 404
      const authorize = () => assertGate(Gate.dealWriter, request.auth);
      await updateDeal(db, request.auth, request.params.id, request.body ?? {}, now(), authorize);
      return respond(request, request.params.id);
    },
  );

  app.delete(
    '/v1/deals/:id',
    {
      schema: {
        tags,
        summary: 'Delete a deal (soft: it shows status Deleted and leaves the lists)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      // the gate is checked after the lookup: an unseen deal stays a 404
      const authorize = () => assertGate(Gate.dealWriter, request.auth);
      await softDeleteDeal(db, request.auth, request.params.id, now(), authorize);
      return reply.code(204).send(null);
    },
  );
};
