import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { responses } from '../../platform/http/schemas.js';
import { ListEnvelope, PageQuery, readIdList, readPage } from '../../platform/http/pagination.js';
import { TIMEFRAMES } from './timeframes.js';

const Timeframe = Type.Object({ id: Type.Integer(), timeframe: Type.String() });
const TimeframeListQuery = Type.Object(
  { ...PageQuery, system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/** GET /v1/timeframes: the fixed list people's `timeframeId` names (five entries: one page). */
export const timeframesRoutes: RoutePlugin = async (app) => {
  app.get(
    '/v1/timeframes',
    {
      schema: {
        tags: ['timeframes'],
        summary: "The timeframes a person's timeframeId names (the same for every account)",
        querystring: TimeframeListQuery,
        response: responses({ 200: ListEnvelope('timeframes', Timeframe) }),
      },
    },
    async (request) => {
      const { limit, offset } = readPage(request.query);
      const ids = request.query.id ? readIdList(request.query.id) : null;
      const matching = TIMEFRAMES.filter((t) => !ids || ids.includes(t.id));
      return {
        _metadata: { collection: 'timeframes', offset, limit, total: matching.length },
        timeframes: matching.slice(offset, offset + limit),
      };
    },
  );
};
