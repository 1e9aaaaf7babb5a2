import { Type } from '@sinclair/typebox';
import { SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';

const Emoji = Type.String({ minLength: 1, maxLength: 32, description: 'The emoji' });
export const ReactionRefParams = Type.Object({
  refType: Type.String({ minLength: 1, maxLength: 50 }),
  refId: Type.Integer({ minimum: 1 }),
});
export const ReactBody = Type.Object(
  { body: Emoji, ...SystemField },
  { additionalProperties: false },
);
export const UnreactQuery = Type.Object(
  { emoji: Type.Optional(Emoji), body: Type.Optional(Emoji), system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export const UnreactBody = Type.Union([
  Type.Null(),
  Type.Object(
    { emoji: Type.Optional(Emoji), body: Type.Optional(Emoji), ...SystemField },
    { additionalProperties: false },
  ),
]);
export const ReactionListQuery = Type.Object(
  {
    ...PageQuery,
    refType: Type.Optional(Type.String()),
    refId: Type.Optional(Type.Integer({ minimum: 1 })),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
