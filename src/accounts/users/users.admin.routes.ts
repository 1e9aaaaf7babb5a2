import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { DeactivateQuery, RoleChangeBody, User } from './users.schemas.js';
import { presentUsers } from './users.presenter.js';
import { getUser } from './users.repo.js';
import { changeRole, deactivateUser } from './users.manage.js';

const tags = ['users'];

/** Role changes and deactivation: Owner/Admin; only an Owner touches Owners. */
export const usersAdminRoutes: RoutePlugin = async (app, { ctx }) => {
  const userById = async (accountId: number, id: number) =>
    (await presentUsers(ctx.db, [await getUser(ctx.db, accountId, id)]))[0];

  app.put(
    '/v1/users/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: "Change a user's role (Owner/Admin; only an Owner makes Owners)",
        params: IdParams,
        body: RoleChangeBody,
        response: responses({ 200: User }),
      },
    },
    async (request) => {
      await changeRole(ctx, request.auth, request.params.id, request.body.role);
      return userById(request.auth.accountId, request.params.id);
    },
  );

  app.delete(
    '/v1/users/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary:
          'Deactivate a user: their people go to assignTo; their sessions, API key, OAuth codes and tokens end',
        params: IdParams,
        querystring: DeactivateQuery,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await deactivateUser(ctx, request.auth, request.params.id, request.query.assignTo);
      return reply.code(204).send(null);
    },
  );
};
