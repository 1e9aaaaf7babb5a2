import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  ActionPlan,
  ActionPlanCreateBody,
  ActionPlanListQuery,
  ActionPlanUpdateBody,
} from './actionPlans.schemas.js';
import { type ActionPlanRow, presentActionPlan } from './actionPlans.presenter.js';
import { findPlan, plansListQuery, stepsOfPlans } from './actionPlans.repo.js';
import { changePlan, createPlan, removePlan } from './actionPlans.service.js';

const tags = ['actionPlans'];

/** Action plans: Owner and Admin define them, every user of the account may read them. */
export const actionPlansRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const load = async (accountId: number, id: number) => {
    const row = await findPlan(db, accountId, id);
    if (!row) throw notFound(`Action plan ${id}`);
    return presentActionPlan(row, (await stepsOfPlans(db, accountId, [id])).get(id)!);
  };

  app.get(
    '/v1/actionPlans',
    {
      schema: {
        tags,
        summary: 'List action plans',
        querystring: ActionPlanListQuery,
        response: responses({ 200: ListEnvelope('actionPlans', ActionPlan) }),
      },
    },
    async (request) => {
      const q = request.query;
      const accountId = request.auth.accountId;
      const page = await paginate<ActionPlanRow>(request, {
        collection: 'actionPlans',
        query: plansListQuery(db, accountId, q),
        page: readPage(q),
        sort: readSort(
          q.sort,
          { name: 'name', created: 'created_at', updated: 'updated_at' },
          'id',
        ),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      const steps = await stepsOfPlans(
        db,
        accountId,
        page.rows.map((r) => r.id),
      );
      return {
        _metadata: page.metadata,
        actionPlans: page.rows.map((row) => presentActionPlan(row, steps.get(row.id)!)),
      };
    },
  );

  app.get(
    '/v1/actionPlans/:id',
    {
      schema: {
        tags,
        summary: 'Get an action plan with its steps',
        params: IdParams,
        response: responses({ 200: ActionPlan }),
      },
    },
    async (request) => load(request.auth.accountId, request.params.id),
  );

  app.post(
    '/v1/actionPlans',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Create an action plan (Owner, Admin)',
        body: ActionPlanCreateBody,
        response: responses({ 201: ActionPlan }),
      },
    },
    async (request, reply) => {
      const accountId = request.auth.accountId;
      const id = await createPlan(db, accountId, request.body, now());
      return reply.code(201).send(await load(accountId, id));
    },
  );

  app.put(
    '/v1/actionPlans/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Update an action plan; `steps`, when given, replaces the steps (Owner, Admin)',
        params: IdParams,
        body: ActionPlanUpdateBody,
        response: responses({ 200: ActionPlan }),
      },
    },
    async (request) => {
      const accountId = request.auth.accountId;
      const id = request.params.id;
      await changePlan(db, accountId, id, request.body, now());
      return load(accountId, id);
    },
  );

  app.delete(
    '/v1/actionPlans/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Delete an action plan; people on it are taken off (Owner, Admin)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await removePlan(db, request.auth.accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
