import { type Static, Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { responses } from '../../platform/http/schemas.js';
import { loadDefinitions } from '../customFields/customFields.values.js';
import { PeopleListQuery } from '../people/people.schemas.js';
import { withSmartList } from '../smartLists/smartLists.filters.js';
import { exportPeople } from './export.js';

/** Every filter of GET /v1/people (not its paging: an export is every match), plus the format. */
const ExportQuery = Type.Object(
  {
    ...Type.Omit(PeopleListQuery, ['limit', 'offset', 'next', 'fields']).properties,
    format: Type.Optional(
      Type.Union([Type.Literal('csv'), Type.Literal('jsonl')], {
        description: 'csv (default): the columns the import reads; jsonl: full person documents',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Its own module, listed before the people routes in routes.ts: `/v1/people/export` is a static
 * path, which the router prefers to `/v1/people/:id` in any case.
 */
export const peopleExportRoutes: RoutePlugin = async (app, { ctx }) => {
  app.get(
    '/v1/people/export',
    {
      schema: {
        tags: ['people'],
        summary:
          'Export the people matching the filters of GET /v1/people, as CSV (importable) or JSON Lines',
        querystring: ExportQuery,
        produces: ['text/csv', 'application/x-ndjson'],
        response: responses({ 200: Type.String({ description: 'CSV or JSON Lines, streamed' }) }),
      },
    },
    async (request, reply) => {
      const { format = 'csv', ...query } = request.query;
      const filters = await withSmartList(
        ctx.db,
        request.auth,
        query as Static<typeof PeopleListQuery>,
      );
      const custom = await loadDefinitions(ctx.db, request.auth.accountId, 'person');
      const stream = await exportPeople(ctx, request.auth, filters, format, custom);
      const day = new Date(ctx.clock.now()).toISOString().slice(0, 10);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="people-${day}.${format}"`)
        .send(stream);
    },
  );
};
