import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { responses } from '../../platform/http/schemas.js';
import {
  ListEnvelope,
  PageQuery,
  paginate,
  readPage,
  readSort,
} from '../../platform/http/pagination.js';
import type { TeamRow } from './teams.repo.js';
import { inboxUsersOf, visibleTeamInboxes } from './teamInboxes.repo.js';

const InboxUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
});
const TeamInbox = Type.Object(
  { id: Type.Integer(), name: Type.String(), users: Type.Array(InboxUser) },
  {
    description:
      "A team's shared inbox: its id and name are the team's, its users the team's members and leaders",
  },
);
const ListQuery = Type.Object(
  { ...PageQuery, sort: Type.Optional(Type.String()), system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/**
 * GET /v1/teamInboxes: each team is a shared inbox of its members and leaders. Owner and Admin
 * see every one; anyone else the inboxes they belong to.
 */
export const teamInboxesRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  app.get(
    '/v1/teamInboxes',
    {
      schema: {
        tags: ['teams'],
        summary: 'Team inboxes: every team for Owner/Admin, else the ones you belong to',
        querystring: ListQuery,
        response: responses({ 200: ListEnvelope('teamInboxes', TeamInbox) }),
      },
    },
    async (request) => {
      const { auth } = request;
      const page = await paginate<TeamRow>(request, {
        collection: 'teamInboxes',
        query: visibleTeamInboxes(db, auth),
        page: readPage(request.query),
        sort: readSort(request.query.sort, { name: 'name', created: 'created_at' }, 'id'),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      const users = await inboxUsersOf(
        db,
        auth.accountId,
        page.rows.map((r) => r.id),
      );
      return {
        _metadata: page.metadata,
        teamInboxes: page.rows.map((r) => ({ id: r.id, name: r.name, users: users.get(r.id)! })),
      };
    },
  );
};
