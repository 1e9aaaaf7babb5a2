import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { IdParams, MAX_ID, responses } from '../../platform/http/schemas.js';
import { paginate, readPage, readSort } from '../../platform/http/pagination.js';
import {
  EmEvent,
  EmEventListQuery,
  EmEventsCreateBody,
  EmEventsCreated,
  EmEventsList,
} from './emEvents.schemas.js';
import { type EmEventRow, findVisibleEmEvent, visibleEmEvents } from './emEvents.repo.js';
import { presentEmEvent } from './emEvents.presenter.js';
import { emStatistics } from './emEvents.stats.js';
import { recordEmEventBatch } from './emEvents.service.js';
import { EM_EVENT_TYPES } from './emEvents.types.js';
import { SystemOnlyQuery } from '../emCampaigns/emCampaigns.schemas.js';

const tags = ['email marketing'];

function commaIds(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const ids = parts.map(Number);
  if (ids.some((id) => !Number.isInteger(id) || id < 1 || id > MAX_ID))
    throw badRequest("'id' must be a comma-separated list of event ids", [
      { field: 'id', message: 'invalid id list' },
    ]);
  return ids;
}

function commaTypes(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const types = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = types.filter((t) => !(EM_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length)
    throw badRequest(
      `Unknown event type(s) ${unknown.map((t) => `'${t}'`).join(', ')}; types: ${EM_EVENT_TYPES.join(', ')}`,
      [{ field: 'type', message: 'unknown type' }],
    );
  return types;
}

/** Email marketing events: posted in batches by marketing tools, listed with their statistics. */
export const emEventsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/emEvents',
    {
      schema: {
        tags,
        summary: 'List email marketing events with statistics (built-in and third-party combined)',
        description:
          '`stats` covers every event matching campaignId and personId, not only this page; the type and id filters narrow the ' +
          'list only. Agents and Lenders see the events of people they can see.',
        querystring: EmEventListQuery,
        response: responses({ 200: EmEventsList }),
      },
    },
    async (request) => {
      const q = request.query;
      const scope = { personId: q.personId, campaignId: q.campaignId };
      const filters = { ...scope, ids: commaIds(q.id), types: commaTypes(q.type) };
      const [page, stats] = await Promise.all([
        paginate<EmEventRow>(request, {
          collection: 'emEvents',
          query: visibleEmEvents(db, request.auth, filters).selectAll('em_events'),
          page: readPage(q),
          sort: readSort(q.sort, { occurred: 'em_events.occurred_at' }, 'em_events.id'),
          idExpression: 'em_events.id',
          publicUrl: ctx.config.publicUrl,
          // A campaign's events run to millions: counted up to EXACT_TOTAL_LIMIT, as people are.
          db,
        }),
        emStatistics(db, request.auth, scope),
      ]);
      return { _metadata: page.metadata, emEvents: page.rows.map(presentEmEvent), stats };
    },
  );

  app.get(
    '/v1/emEvents/:id',
    {
      schema: {
        tags,
        summary: 'Get an email marketing event',
        params: IdParams,
        querystring: SystemOnlyQuery,
        response: responses({ 200: EmEvent }),
      },
    },
    async (request) => {
      const row = await findVisibleEmEvent(db, request.auth, request.params.id);
      if (!row) throw notFound(`Email marketing event ${request.params.id}`);
      return presentEmEvent(row);
    },
  );

  app.post(
    '/v1/emEvents',
    {
      config: { gate: Gate.staff },
      schema: {
        tags,
        summary: 'Record up to 1000 email marketing events (Owner, Admin or Agent)',
        body: EmEventsCreateBody,
        response: responses({ 201: EmEventsCreated }),
      },
    },
    async (request, reply) => {
      const actor = { auth: request.auth, system: request.system.name ?? '' };
      const result = await recordEmEventBatch(db, actor, request.body.emEvents, {
        now: ctx.clock.now(),
        dialect: ctx.dialect,
      });
      return reply.code(201).send(result);
    },
  );
};
