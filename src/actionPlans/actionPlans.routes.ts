import { containsText } from '../db/text-match.js';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { requireRole } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { IdParams, responses } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../http/pagination.js';
import { isoSeconds } from '../time.js';
import { ActionPlan, ActionPlanCreateBody, ActionPlanListQuery, ActionPlanUpdateBody } from './actionPlans.schemas.js';
import { type ActionPlanRow, presentActionPlan } from './actionPlans.presenter.js';
import { findPlan, plansQuery, stepsOfPlans } from './actionPlans.repo.js';
import { replaceSteps } from './actionPlans.service.js';
import type {} from '../leadFlows/leadFlows.tables.js';

const tags = ['actionPlans'];

/** Action plans: Owner and Admin define them, every user of the account may read them. */
export const actionPlansRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const load = async (accountId: number, id: number) => {
    const row = await findPlan(db, accountId, id);
    if (!row) throw notFound(`Action plan ${id}`);
    return presentActionPlan(row, (await stepsOfPlans(db, accountId, [id])).get(id)!);
  };

  app.get('/v1/actionPlans', {
    schema: { tags, summary: 'List action plans', querystring: ActionPlanListQuery, response: responses({ 200: ListEnvelope('actionPlans', ActionPlan) }) },
  }, async (request) => {
    const q = request.query;
    const accountId = request.auth.accountId;
    let query = plansQuery(db, accountId);
    if (q.status) query = query.where('status', '=', q.status);
    if (q.name) query = query.where(containsText('name', q.name));
    const page = await paginate<ActionPlanRow>(request, {
      collection: 'actionPlans',
      query,
      page: readPage(q),
      sort: readSort(q.sort, { name: 'name', created: 'created_at', updated: 'updated_at' }, 'id'),
      idExpression: 'id',
      publicUrl: ctx.config.publicUrl,
    });
    const steps = await stepsOfPlans(db, accountId, page.rows.map((r) => r.id));
    return { _metadata: page.metadata, actionPlans: page.rows.map((row) => presentActionPlan(row, steps.get(row.id)!)) };
  });

  app.get('/v1/actionPlans/:id', {
    schema: { tags, summary: 'Get an action plan with its steps', params: IdParams, response: responses({ 200: ActionPlan }) },
  }, async (request) => load(request.auth.accountId, request.params.id));

  app.post('/v1/actionPlans', {
    schema: { tags, summary: 'Create an action plan (Owner, Admin)', body: ActionPlanCreateBody, response: responses({ 201: ActionPlan }) },
  }, async (request, reply) => {
    requireRole(request, 'Owner', 'Admin');
    const body = request.body;
    const accountId = request.auth.accountId;
    const id = await db.transaction().execute(async (trx) => {
      const at = now();
      const row = await trx
        .insertInto('action_plans')
        .values({ account_id: accountId, name: body.name.trim(), description: body.description ?? '', status: body.status ?? 'Active', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await replaceSteps(trx, accountId, row.id, body.steps ?? [], true);
      return row.id;
    });
    return reply.code(201).send(await load(accountId, id));
  });

  app.put('/v1/actionPlans/:id', {
    schema: { tags, summary: 'Update an action plan; `steps`, when given, replaces the steps (Owner, Admin)', params: IdParams, body: ActionPlanUpdateBody, response: responses({ 200: ActionPlan }) },
  }, async (request) => {
    requireRole(request, 'Owner', 'Admin');
    const body = request.body;
    const accountId = request.auth.accountId;
    const id = request.params.id;
    await db.transaction().execute(async (trx) => {
      const row = await findPlan(trx, accountId, id);
      if (!row) throw notFound(`Action plan ${id}`);
      await trx
        .updateTable('action_plans')
        .set({ name: body.name?.trim() ?? row.name, description: body.description ?? row.description, status: body.status ?? row.status, updated_at: now() })
        .where('id', '=', id)
        .execute();
      if (body.steps) await replaceSteps(trx, accountId, id, body.steps, false);
    });
    return load(accountId, id);
  });

  app.delete('/v1/actionPlans/:id', {
    schema: { tags, summary: 'Delete an action plan; people on it are taken off (Owner, Admin)', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    requireRole(request, 'Owner', 'Admin');
    const accountId = request.auth.accountId;
    const id = request.params.id;
    await db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('action_plans').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound(`Action plan ${id}`);
      // Lead flows that started this plan stop doing so (their action_plan_id has no foreign key).
      await trx.updateTable('lead_flows').set({ action_plan_id: null }).where('account_id', '=', accountId).where('action_plan_id', '=', id).execute();
    });
    return reply.code(204).send(null);
  });
};
