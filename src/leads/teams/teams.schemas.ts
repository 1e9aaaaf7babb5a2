import { Type } from '@sinclair/typebox';
import { MAX_ID, SystemField } from '../../platform/http/schemas.js';
import { UserIds } from '../ponds/ponds.schemas.js';

export const Team = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  userIds: Type.Array(Type.Integer(), { description: 'Members' }),
  leaderIds: Type.Array(Type.Integer(), {
    description: "Leaders: each sees the people of the team's members",
  }),
});

const teamFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  userIds: Type.Optional(UserIds('Members; on PUT the list replaces the members')),
  leaderIds: Type.Optional(UserIds('Leaders; on PUT the list replaces the leaders')),
  ...SystemField,
};
export const TeamCreateBody = Type.Object(teamFields, { additionalProperties: false });
export const TeamUpdateBody = Type.Object(
  { ...teamFields, name: Type.Optional(teamFields.name) },
  { additionalProperties: false },
);
export const TeamDeleteQuery = Type.Object(
  {
    moveToTeamId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description: 'A team that takes over the members (and leaders) of the deleted one',
      }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
