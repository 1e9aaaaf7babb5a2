import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { DbOrTrx } from '../db/database.js';
import { requireRole } from '../http/auth.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { IdParams, responses } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../http/pagination.js';
import { assertPersonVisible } from '../people/people.access.js';
import { isoSeconds } from '../time.js';
import {
  ActionPlanPerson,
  ActionPlanPersonCreateBody,
  ActionPlanPersonListQuery,
  ActionPlanPersonUpdateBody,
} from './actionPlans.schemas.js';
import { type PlanPersonRow, presentPlanPerson } from './actionPlans.presenter.js';
import { findPlan, findVisiblePlanPerson, visiblePlanPeople } from './actionPlans.repo.js';
import { setPlanPersonStatus, startOnPlan } from './actionPlans.service.js';

const tags = ['actionPlans'];

async function loadVisible(db: DbOrTrx, request: FastifyRequest, id: number): Promise<PlanPersonRow> {
  const row = await findVisiblePlanPerson(db, request.auth, id);
  if (!row) throw notFound(`Action plan run ${id}`);
  return row;
}

/**
 * Action plans applied to people. Everyone sees the runs of the people they may see; Owner, Admin
 * and Agents (on their own people) start, pause and resume them; Lenders only read.
 */
export const actionPlansPeopleRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;

  app.get('/v1/actionPlansPeople', {
    schema: { tags, summary: 'List action plans applied to people (filter by personId, actionPlanId, status)', querystring: ActionPlanPersonListQuery, response: responses({ 200: ListEnvelope('actionPlansPeople', ActionPlanPerson) }) },
  }, async (request) => {
    const q = request.query;
    let query = visiblePlanPeople(db, request.auth);
    if (q.personId !== undefined) query = query.where('app.person_id', '=', q.personId);
    if (q.actionPlanId !== undefined) query = query.where('app.action_plan_id', '=', q.actionPlanId);
    if (q.status) query = query.where('app.status', '=', q.status);
    const page = await paginate<PlanPersonRow>(request, {
      collection: 'actionPlansPeople',
      query,
      page: readPage(q),
      sort: readSort(q.sort, { started: 'app.started_at', updated: 'app.updated_at' }, 'app.id'),
      idExpression: 'app.id',
      publicUrl: ctx.config.publicUrl,
    });
    return { _metadata: page.metadata, actionPlansPeople: page.rows.map(presentPlanPerson) };
  });

  app.get('/v1/actionPlansPeople/:id', {
    schema: { tags, summary: 'Get an action plan applied to a person', params: IdParams, response: responses({ 200: ActionPlanPerson }) },
  }, async (request) => presentPlanPerson(await loadVisible(db, request, request.params.id)));

  app.post('/v1/actionPlansPeople', {
    schema: { tags, summary: 'Start an action plan for a person (Owner, Admin, Agent)', body: ActionPlanPersonCreateBody, response: responses({ 201: ActionPlanPerson }) },
  }, async (request, reply) => {
    requireRole(request, 'Owner', 'Admin', 'Agent');
    const { personId, actionPlanId } = request.body;
    const id = await db.transaction().execute(async (trx) => {
      await assertPersonVisible(trx, request.auth, personId);
      const plan = await findPlan(trx, request.auth.accountId, actionPlanId);
      if (!plan) throw badRequest(`No action plan ${actionPlanId} in this account`, [{ field: 'actionPlanId', message: 'unknown action plan' }]);
      if (plan.status !== 'Active') throw badRequest(`Action plan ${actionPlanId} is ${plan.status}; activate it before starting it`, [{ field: 'actionPlanId', message: 'inactive action plan' }]);
      const result = await startOnPlan(trx, request.auth.accountId, personId, actionPlanId, isoSeconds(ctx.clock.now()), request.auth.userId);
      if (!result.started) throw conflict(`Person ${personId} is already on action plan ${actionPlanId} (actionPlansPeople ${result.id}); pause or resume that one`);
      return result.id;
    });
    return reply.code(201).send(presentPlanPerson(await loadVisible(db, request, id)));
  });

  app.put('/v1/actionPlansPeople/:id', {
    schema: { tags, summary: 'Pause or resume an action plan for a person (Owner, Admin, Agent)', params: IdParams, body: ActionPlanPersonUpdateBody, response: responses({ 200: ActionPlanPerson }) },
  }, async (request) => {
    requireRole(request, 'Owner', 'Admin', 'Agent');
    const id = request.params.id;
    await db.transaction().execute(async (trx) => {
      await loadVisible(trx, request, id);
      await setPlanPersonStatus(trx, request.auth.accountId, id, request.body.status, isoSeconds(ctx.clock.now()));
    });
    return presentPlanPerson(await loadVisible(db, request, id));
  });
};
