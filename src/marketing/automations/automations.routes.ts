import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import {
  Automation,
  AutomationCreateBody,
  AutomationListQuery,
  AutomationUpdateBody,
} from './automations.schemas.js';
import { presentAutomation } from './automations.presenter.js';
import {
  type AutomationRow,
  automationsQuery,
  findAutomation,
  liveRunCounts,
} from './automations.repo.js';
import { changeAutomation, createAutomation, removeAutomation } from './automations.service.js';
import { requireSystemKey } from './system-key.js';

const tags = ['automations'];

/** Automations: every role reads them, Owner and Admin define them (docs/automations.md). */
export const automationsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const load = async (accountId: number, id: number) => {
    const row = await findAutomation(db, accountId, id);
    if (!row) throw notFound(`Automation ${id}`);
    return presentAutomation(row, (await liveRunCounts(db, accountId, [id])).get(id) ?? 0);
  };

  app.get(
    '/v1/automations',
    {
      schema: {
        tags,
        summary: 'List automations, with how many people each is running for',
        querystring: AutomationListQuery,
        response: responses({ 200: ListEnvelope('automations', Automation) }),
      },
    },
    async (request) => {
      requireSystemKey(request);
      const q = request.query;
      const accountId = request.auth.accountId;
      let query = automationsQuery(db, accountId);
      if (q.status) query = query.where('status', '=', q.status);
      const page = await paginate<AutomationRow>(request, {
        collection: 'automations',
        query,
        page: readPage(q),
        sort: readSort(
          q.sort,
          { name: 'name', created: 'created_at', updated: 'updated_at' },
          'id',
        ),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      const counts = await liveRunCounts(
        db,
        accountId,
        page.rows.map((r) => r.id),
      );
      return {
        _metadata: page.metadata,
        automations: page.rows.map((row) => presentAutomation(row, counts.get(row.id) ?? 0)),
      };
    },
  );

  app.get(
    '/v1/automations/:id',
    {
      schema: {
        tags,
        summary: 'Get an automation',
        params: IdParams,
        response: responses({ 200: Automation }),
      },
    },
    async (request) => {
      requireSystemKey(request);
      return load(request.auth.accountId, request.params.id);
    },
  );

  app.post(
    '/v1/automations',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary:
          'Create an automation: a trigger, optional conditions, ordered actions (Owner, Admin)',
        body: AutomationCreateBody,
        response: responses({ 201: Automation }),
      },
    },
    async (request, reply) => {
      requireSystemKey(request);
      const id = await createAutomation(ctx, request.auth, request.body);
      return reply.code(201).send(await load(request.auth.accountId, id));
    },
  );

  app.put(
    '/v1/automations/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Change an automation; runs going on continue from their next step (Owner, Admin)',
        params: IdParams,
        body: AutomationUpdateBody,
        response: responses({ 200: Automation }),
      },
    },
    async (request) => {
      requireSystemKey(request);
      await changeAutomation(ctx, request.auth, request.params.id, request.body);
      return load(request.auth.accountId, request.params.id);
    },
  );

  app.delete(
    '/v1/automations/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Delete an automation and its runs (Owner, Admin)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      requireSystemKey(request);
      await removeAutomation(ctx, request.auth, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
