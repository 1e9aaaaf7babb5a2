import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  ActionPlanPerson,
  ActionPlanPersonCreateBody,
  ActionPlanPersonListQuery,
  ActionPlanPersonUpdateBody,
} from './actionPlans.schemas.js';
import { type PlanPersonRow, presentPlanPerson } from './actionPlans.presenter.js';
import {
  changePlanPersonStatus,
  getPlanPerson,
  planPeopleList,
  startPlanForPerson,
} from './actionPlansPeople.service.js';

const tags = ['actionPlans'];

/** Action plans applied to people (actionPlansPeople.service.ts has the rules). */
export const actionPlansPeopleRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/actionPlansPeople',
    {
      schema: {
        tags,
        summary: 'List action plans applied to people (filter by personId, actionPlanId, status)',
        querystring: ActionPlanPersonListQuery,
        response: responses({ 200: ListEnvelope('actionPlansPeople', ActionPlanPerson) }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await paginate<PlanPersonRow>(request, {
        collection: 'actionPlansPeople',
        query: planPeopleList(db, request.auth, q),
        page: readPage(q),
        sort: readSort(q.sort, { started: 'app.started_at', updated: 'app.updated_at' }, 'app.id'),
        idExpression: 'app.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, actionPlansPeople: page.rows.map(presentPlanPerson) };
    },
  );

  app.get(
    '/v1/actionPlansPeople/:id',
    {
      schema: {
        tags,
        summary: 'Get an action plan applied to a person',
        params: IdParams,
        response: responses({ 200: ActionPlanPerson }),
      },
    },
    async (request) => presentPlanPerson(await getPlanPerson(db, request.auth, request.params.id)),
  );

  app.post(
    '/v1/actionPlansPeople',
    {
      config: { gate: Gate.staff },
      schema: {
        tags,
        summary: 'Start an action plan for a person (Owner, Admin, Agent)',
        body: ActionPlanPersonCreateBody,
        response: responses({ 201: ActionPlanPerson }),
      },
    },
    async (request, reply) => {
      const { personId, actionPlanId } = request.body;
      const at = isoSeconds(ctx.clock.now());
      const id = await startPlanForPerson(db, request.auth, personId, actionPlanId, at);
      return reply.code(201).send(presentPlanPerson(await getPlanPerson(db, request.auth, id)));
    },
  );

  app.put(
    '/v1/actionPlansPeople/:id',
    {
      config: { gate: Gate.staff },
      schema: {
        tags,
        summary: 'Pause or resume an action plan for a person (Owner, Admin, Agent)',
        params: IdParams,
        body: ActionPlanPersonUpdateBody,
        response: responses({ 200: ActionPlanPerson }),
      },
    },
    async (request) => {
      const id = request.params.id;
      const at = isoSeconds(ctx.clock.now());
      await changePlanPersonStatus(db, request.auth, id, request.body.status, at);
      return presentPlanPerson(await getPlanPerson(db, request.auth, id));
    },
  );
};
