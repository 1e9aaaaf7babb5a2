import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { USER_ROLES } from '../accounts.service.js';
import { createInvite, presentInvite } from './invites.service.js';
import { iso } from '../auth/links.js';
import { pendingInvites, withdrawInvite } from './invites.repo.js';

const tags = ['users'];

export const Invite = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  role: Type.String(),
  expiresAt: Type.String(),
  created: Type.String(),
  invitedById: Type.Union([Type.Integer(), Type.Null()]),
});

const InviteCreated = Type.Intersect([
  Invite,
  Type.Object({
    inviteLink: Type.Optional(Type.String()),
    emailed: Type.Boolean(),
  }),
]);

const InviteBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    role: Type.Union(USER_ROLES.map((r) => Type.Literal(r))),
  },
  { additionalProperties: false },
);

export const invitesRoutes: RoutePlugin = async (app, { ctx }) => {
  app.post(
    '/v1/invites',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary:
          'Invite a person to become a user (emailed when HEARTH_SMTP_URL is set, else the link is returned once)',
        body: InviteBody,
        response: responses({ 201: InviteCreated }),
      },
    },
    async (request, reply) => {
      return reply.code(201).send(await createInvite(ctx, request.auth, request.body));
    },
  );

  app.get(
    '/v1/invites',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Pending invites (not used, not expired)',
        response: responses({ 200: Type.Object({ invites: Type.Array(Invite) }) }),
      },
    },
    async (request) => {
      const rows = await pendingInvites(ctx.db, request.auth.accountId, iso(ctx.clock.now()));
      return { invites: rows.map(presentInvite) };
    },
  );

  app.delete(
    '/v1/invites/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Withdraw a pending invite: its link stops working',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      if (!(await withdrawInvite(ctx.db, request.auth.accountId, request.params.id)))
        throw notFound(`Invite ${request.params.id}`);
      return reply.code(204).send(null);
    },
  );
};
