import { Type } from '@sinclair/typebox';
import { MAX_ID, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';

const Member = Type.Object({ id: Type.Integer(), name: Type.String() });
export const Group = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  type: Type.String({ description: 'Agent or Lender' }),
  distribution: Type.String({ description: 'round-robin or first-to-claim' }),
  claimWindow: Type.Integer({ description: 'first-to-claim: seconds an offer stays open' }),
  defaultUserId: Nullable(Type.Integer()),
  defaultGroupId: Nullable(Type.Integer()),
  defaultPondId: Nullable(Type.Integer()),
  users: Type.Array(Member),
});

const UserRef = Type.Union([
  Type.Integer({ minimum: 1 }),
  Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: true }),
]);
const groupFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.Optional(Type.Union([Type.Literal('Agent'), Type.Literal('Lender')])),
  distribution: Type.Optional(
    Type.Union([Type.Literal('round-robin'), Type.Literal('first-to-claim')], {
      description:
        'round-robin: members in turn; first-to-claim: offered to every member, the first POST /v1/people/claim gets it',
    }),
  ),
  claimWindow: Type.Optional(
    Type.Integer({
      minimum: 60,
      maximum: 1800,
      description: 'first-to-claim: seconds before an unclaimed lead goes to the fallback',
    }),
  ),
  defaultUserId: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Fallback user' })),
  ),
  defaultGroupId: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Fallback group' })),
  ),
  defaultPondId: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description: 'Fallback pond (used when no fallback user or group is set)',
      }),
    ),
  ),
  users: Type.Optional(
    Type.Array(UserRef, { maxItems: 500, description: 'User ids (or {id}) in rotation order' }),
  ),
  ...SystemField,
};
export const GroupCreateBody = Type.Object(groupFields, { additionalProperties: false });
export const GroupUpdateBody = Type.Object(
  { ...groupFields, name: Type.Optional(groupFields.name) },
  { additionalProperties: false },
);

export const GroupListQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
