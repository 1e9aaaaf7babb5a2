import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../platform/http/route-types.js';
import { notFound } from '../platform/http/errors.js';
import { IdParams, responses } from '../platform/http/schemas.js';
import { ListEnvelope } from '../platform/http/pagination.js';
import { isoSeconds } from '../platform/time.js';
import { Deal, DealCreateBody, DealListQuery, DealUpdateBody } from './deals.schemas.js';
import { findVisibleDeal, linksOf, presentDeal } from './deals.repo.js';
import { assertGate, Gate } from '../access/gates.js';
import { createDeal, softDeleteDeal } from './deals.service.js';
import { changeDeal, dealDocument, listDeals } from './deals.answers.js';

const tags = ['deals'];

/** `/v1/deals`: deals moving through pipelines. Agents and Lenders see only the deals tied to them. */
export const dealsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
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
    async (request) => listDeals(ctx, request.auth, request, request.query),
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
      return reply.code(201).send(await dealDocument(ctx, request.auth, id));
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
    async (request) => changeDeal(ctx, request.auth, request.params.id, request.body ?? {}),
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
