import { Type } from '@sinclair/typebox';
import { MAX_ID, SystemField } from '../../platform/http/schemas.js';

const UserId = Type.Integer({ minimum: 1, maximum: MAX_ID });
export const UserIds = (description: string) =>
  Type.Array(UserId, { maxItems: 1000, uniqueItems: true, description });

export const Pond = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  userId: Type.Union([Type.Integer(), Type.Null()], {
    description: "The lead agent: stands in as the assigned agent of the pond's people",
  }),
  userIds: Type.Array(Type.Integer(), { description: 'Members: each sees the pond’s people' }),
});

const pondFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  userId: Type.Optional(Type.Union([UserId, Type.Null()], { description: 'The lead agent' })),
  userIds: Type.Optional(UserIds('Members; on PUT the list replaces the members')),
  ...SystemField,
};
export const PondCreateBody = Type.Object(pondFields, { additionalProperties: false });
export const PondUpdateBody = Type.Object(
  { ...pondFields, name: Type.Optional(pondFields.name) },
  { additionalProperties: false },
);
export const PondDeleteQuery = Type.Object(
  {
    assignTo: Type.Integer({
      minimum: 1,
      maximum: MAX_ID,
      description: "The user who becomes the assigned agent of the pond's people",
    }),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
