import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import type { AuthUser } from '../../accounts/auth/authenticate.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import {
  AutomationPerson,
  AutomationPersonCreateBody,
  AutomationPersonListQuery,
  AutomationPersonUpdateBody,
} from './automations.schemas.js';
import { presentRun } from './automations.presenter.js';
import { findVisibleRun, type RunWithName, visibleRuns } from './automations.repo.js';
import { changeRunStatus, startForPerson } from './automations.service.js';
import { requireSystemKey } from './system-key.js';

const tags = ['automations'];

/**
 * Automations running for people: everyone sees the runs of the people they see; Owner, Admin and
 * Agents start, pause, resume and cancel them.
 */
export const automationsPeopleRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const load = async (auth: AuthUser, id: number) => {
    const row = await findVisibleRun(db, auth, id);
    if (!row) throw notFound(`Automation run ${id}`);
    return presentRun(row);
  };

  app.get(
    '/v1/automationsPeople',
    {
      schema: {
        tags,
        summary: 'List automations running for people (filter by personId, automationId, status)',
        querystring: AutomationPersonListQuery,
        response: responses({ 200: ListEnvelope('automationspeople', AutomationPerson) }),
      },
    },
    async (request) => {
      requireSystemKey(request);
      const q = request.query;
      let query = visibleRuns(db, request.auth);
      if (q.personId !== undefined) query = query.where('ar.person_id', '=', q.personId);
      if (q.automationId !== undefined)
        query = query.where('ar.automation_id', '=', q.automationId);
      if (q.status) query = query.where('ar.status', '=', q.status);
      const page = await paginate<RunWithName>(request, {
        collection: 'automationspeople',
        query,
        page: readPage(q),
        sort: readSort(q.sort, { created: 'ar.created_at', updated: 'ar.updated_at' }, 'ar.id'),
        idExpression: 'ar.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, automationspeople: page.rows.map(presentRun) };
    },
  );

  app.get(
    '/v1/automationsPeople/:id',
    {
      schema: {
        tags,
        summary: 'Get an automation running for a person',
        params: IdParams,
        response: responses({ 200: AutomationPerson }),
      },
    },
    async (request) => {
      requireSystemKey(request);
      return load(request.auth, request.params.id);
    },
  );

  app.post(
    '/v1/automationsPeople',
    {
      config: { gate: Gate.staff },
      schema: {
        tags,
        summary: 'Run an automation for a person (Owner, Admin, Agent)',
        body: AutomationPersonCreateBody,
        response: responses({ 201: AutomationPerson }),
      },
    },
    async (request, reply) => {
      requireSystemKey(request);
      const { automationId, personId } = request.body;
      const id = await startForPerson(ctx, request.auth, automationId, personId);
      return reply.code(201).send(await load(request.auth, id));
    },
  );

  app.put(
    '/v1/automationsPeople/:id',
    {
      config: { gate: Gate.staff },
      schema: {
        tags,
        summary:
          'Pause (Paused), resume (Running) or cancel (Cancelled) a run (Owner, Admin, Agent)',
        params: IdParams,
        body: AutomationPersonUpdateBody,
        response: responses({ 200: AutomationPerson }),
      },
    },
    async (request) => {
      requireSystemKey(request);
      await changeRunStatus(ctx, request.auth, request.params.id, request.body.status);
      return load(request.auth, request.params.id);
    },
  );
};
