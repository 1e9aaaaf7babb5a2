import { Type } from '@sinclair/typebox';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';
import { allOptional, timelineListQuery } from '../timeline.shared.js';

export const TextMessage = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  personId: Type.Integer(),
  message: Type.String(),
  toNumber: Type.String(),
  fromNumber: Type.String(),
  isIncoming: Type.Boolean(),
  userId: Nullable(Type.Integer()),
  system: Type.String(),
});
const fields = {
  personId: Type.Integer({ minimum: 1 }),
  message: Type.String({ minLength: 1, maxLength: 20_000 }),
  toNumber: Type.String({ maxLength: 50 }),
  fromNumber: Type.String({ maxLength: 50 }),
  isIncoming: Bool(),
};
export const TextMessageCreateBody = Type.Object(
  { ...allOptional(fields), personId: fields.personId, message: fields.message, ...SystemField },
  { additionalProperties: false },
);
export const TextMessageUpdateBody = Type.Object(
  { ...allOptional(fields), ...SystemField },
  { additionalProperties: false },
);
export const TextMessageListQuery = Type.Object(timelineListQuery, { additionalProperties: false });
