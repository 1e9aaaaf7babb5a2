import { Type } from '@sinclair/typebox';
import { MAX_ID } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { USER_ROLES } from '../accounts.service.js';

export const User = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  role: Type.String(),
  status: Type.String(),
  teamLeaderOf: Type.Array(Type.Integer(), { description: 'Ids of the teams this user leads' }),
});

export const UserListQuery = Type.Object(
  {
    ...PageQuery,
    role: Type.Optional(
      Type.Union(['Owner', 'Admin', 'Broker', 'Agent', 'Lender'].map((r) => Type.Literal(r))),
    ),
    name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    includeDeleted: Type.Optional(Type.Boolean({ description: 'also list deactivated users' })),
    sort: Type.Optional(Type.String()),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const Identity = Type.Object({
  account: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    owner: Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String() }),
    leadEmailAddress: Type.String({
      description: 'Lead emails sent here follow the lead flow of their source',
    }),
  }),
  user: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    role: Type.String(),
    leadEmailAddress: Type.String({
      description: 'Lead emails sent here are assigned to this user',
    }),
  }),
});

const RoleName = Type.Union(USER_ROLES.map((r) => Type.Literal(r)));

export const RoleChangeBody = Type.Object({ role: RoleName }, { additionalProperties: false });

export const DeactivateQuery = Type.Object({
  assignTo: Type.Integer({
    minimum: 1,
    maximum: MAX_ID,
    description: 'the user who takes over their people (required)',
  }),
});
