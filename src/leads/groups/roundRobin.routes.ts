import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Nullable, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage } from '../../platform/http/pagination.js';
import { type GroupRow, groupsOfType, membersOf } from './groups.repo.js';
import { Group } from './groups.schemas.js';
import { presentGroup } from './groups.presenter.js';

const RoundRobinQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(Type.Union([Type.Literal('Agent'), Type.Literal('Lender')])),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const GroupRotation = Type.Object({
  ...Group.properties,
  leadsDistributed: Type.Integer({ description: 'Leads the rotation has handed out' }),
  nextUserId: Nullable(
    Type.Integer({ description: 'Who the next round-robin lead goes to (null: none)' }),
  ),
});

/** GET /v1/groups/roundRobin: every group with its rotation state (a static path: before /:id). */
export const roundRobinRoutes: RoutePlugin = async (app, { ctx }) => {
  app.get(
    '/v1/groups/roundRobin',
    {
      schema: {
        tags: ['groups'],
        summary: 'Groups with their rotation state: who is next, leads handed out (?type=)',
        querystring: RoundRobinQuery,
        response: responses({ 200: ListEnvelope('groups', GroupRotation) }),
      },
    },
    async (request) => {
      const page = await paginate<GroupRow>(request, {
        collection: 'groups',
        query: groupsOfType(ctx.db, request.auth.accountId, request.query.type),
        page: readPage(request.query),
        sort: { name: '-id', expression: 'id', descending: true },
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      const members = await membersOf(
        ctx.db,
        page.rows.map((r) => r.id),
      );
      return {
        _metadata: page.metadata,
        groups: page.rows.map((row) => {
          const users = members.get(row.id)!;
          const rotation = Number(row.rotation);
          const next =
            row.distribution === 'round-robin' && users.length
              ? users[rotation % users.length].id
              : null;
          return { ...presentGroup(row, users), leadsDistributed: rotation, nextUserId: next };
        }),
      };
    },
  );
};
