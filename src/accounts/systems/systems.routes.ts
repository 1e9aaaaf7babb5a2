import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage } from '../../platform/http/pagination.js';
import { SystemListQuery, System, SystemUsage, UsageQuery } from './systems.schemas.js';
import { findSystem, presentSystem, type SystemRow, systemsWithWebhooks } from './systems.repo.js';

const tags = ['systems'];

/**
 * /v1/systems: the registered systems and their rate-limit usage, for the admin area (Owner and
 * Admin through their session or key). Systems themselves read their own usage with their key at
 * /v1/rateLimit/usage; limits and usage are per system across the installation.
 */
export const systemsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const limiter = app.rateLimiter;

  app.get(
    '/v1/systems',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: "The installation's registered systems, with this account's webhooks of each",
        querystring: SystemListQuery,
        response: responses({ 200: ListEnvelope('systems', System) }),
      },
    },
    async (request) => {
      const page = await paginate<SystemRow>(request, {
        collection: 'systems',
        query: systemsWithWebhooks(db, request.auth.accountId),
        page: readPage(request.query),
        sort: { name: 'name', expression: 's.name', descending: false },
        idExpression: 's.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, systems: page.rows.map(presentSystem) };
    },
  );

  app.get(
    '/v1/systems/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'A registered system',
        params: IdParams,
        querystring: SystemListQuery,
        response: responses({ 200: System }),
      },
    },
    async (request) => {
      const row = await findSystem(db, request.auth.accountId, request.params.id);
      if (!row) throw notFound(`System ${request.params.id}`);
      return presentSystem(row);
    },
  );

  app.get(
    '/v1/systems/:id/usage',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary:
          "A system's rate-limit usage hour by hour (default the last 24 hours), with the limits in force",
        params: IdParams,
        querystring: UsageQuery,
        response: responses({ 200: SystemUsage }),
      },
    },
    async (request) => {
      const row = await findSystem(db, request.auth.accountId, request.params.id);
      if (!row) throw notFound(`System ${request.params.id}`);
      return limiter.hourlyUsage(row.name, request.query.hours ?? 24);
    },
  );
};
