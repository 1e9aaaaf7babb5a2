import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  LeadFlow,
  LeadFlowCreateBody,
  LeadFlowListQuery,
  LeadFlowUpdateBody,
} from './leadFlows.schemas.js';
import { presentLeadFlow } from './leadFlows.presenter.js';
import { deleteAccountRow } from '../../platform/db/account-rows.js';
import { findLeadFlowById, leadFlowsQuery } from './leadFlows.repo.js';
import {
  changeLeadFlow,
  createLeadFlow,
  type LeadFlowRow,
  sourceKey,
} from './leadFlows.service.js';

const tags = ['leadFlows'];

/** /v1/leadFlows: per-source rules for new leads. Owner and Admin only. */
export const leadFlowsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());

  app.get(
    '/v1/leadFlows',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'List lead flows (Owner, Admin)',
        querystring: LeadFlowListQuery,
        response: responses({ 200: ListEnvelope('leadFlows', LeadFlow) }),
      },
    },
    async (request) => {
      const q = request.query;
      const filters = { sourceKey: q.source ? sourceKey(q.source) : undefined, status: q.status };
      const page = await paginate<LeadFlowRow>(request, {
        collection: 'leadFlows',
        query: leadFlowsQuery(db, request.auth.accountId, filters),
        page: readPage(q),
        sort: readSort(q.sort, { source: 'source_key', created: 'created_at' }, 'id'),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, leadFlows: page.rows.map(presentLeadFlow) };
    },
  );

  app.get(
    '/v1/leadFlows/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Get a lead flow (Owner, Admin)',
        params: IdParams,
        response: responses({ 200: LeadFlow }),
      },
    },
    async (request) => {
      const row = await findLeadFlowById(db, request.auth.accountId, request.params.id);
      if (!row) throw notFound(`Lead flow ${request.params.id}`);
      return presentLeadFlow(row);
    },
  );

  app.post(
    '/v1/leadFlows',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Create the lead flow of a source (Owner, Admin)',
        body: LeadFlowCreateBody,
        response: responses({ 201: LeadFlow }),
      },
    },
    async (request, reply) => {
      const row = await createLeadFlow(db, request.auth.accountId, request.body, now());
      return reply.code(201).send(presentLeadFlow(row));
    },
  );

  app.put(
    '/v1/leadFlows/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary:
          'Update a lead flow; status Archived makes its leads be ignored (204) (Owner, Admin)',
        params: IdParams,
        body: LeadFlowUpdateBody,
        response: responses({ 200: LeadFlow }),
      },
    },
    async (request) => {
      const { accountId } = request.auth;
      return presentLeadFlow(
        await changeLeadFlow(db, accountId, request.params.id, request.body, now()),
      );
    },
  );

  app.delete(
    '/v1/leadFlows/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Delete a lead flow; its source falls back to the default flow (Owner, Admin)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      if (!(await deleteAccountRow(db, 'lead_flows', request.auth.accountId, request.params.id)))
        throw notFound(`Lead flow ${request.params.id}`);
      return reply.code(204).send(null);
    },
  );
};
