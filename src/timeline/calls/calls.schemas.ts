import { Type } from '@sinclair/typebox';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';
import { allOptional, timelineListQuery } from '../timeline.shared.js';

export const CALL_OUTCOMES = [
  'Interested',
  'Not Interested',
  'Left Message',
  'No Answer',
  'Busy',
  'Bad Number',
] as const;

export const Call = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  personId: Type.Integer({ description: '0: an unknown caller' }),
  phone: Type.String(),
  isIncoming: Type.Boolean(),
  outcome: Nullable(Type.String()),
  duration: Type.Integer(),
  note: Type.String(),
  toNumber: Type.String(),
  fromNumber: Type.String(),
  userId: Nullable(Type.Integer()),
  recordingUrl: Type.String(),
  system: Type.String(),
});

const fields = {
  personId: Type.Integer({
    minimum: 0,
    description: '0 (or absent) for an unknown caller: visible to Owners and Admins only',
  }),
  phone: Type.String({ maxLength: 50 }),
  isIncoming: Bool(),
  outcome: Nullable(Type.Union(CALL_OUTCOMES.map((o) => Type.Literal(o)))),
  duration: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'seconds' }),
  note: Type.String({ maxLength: 20_000 }),
  toNumber: Type.String({ maxLength: 50 }),
  fromNumber: Type.String({ maxLength: 50 }),
  userId: Nullable(Type.Integer({ minimum: 1 })),
  recordingUrl: Type.String({ maxLength: 2000 }),
};
export const CallBody = Type.Object(
  { ...allOptional(fields), ...SystemField },
  { additionalProperties: false },
);
export const CallListQuery = Type.Object(
  {
    ...timelineListQuery,
    phone: Type.Optional(Type.String({ maxLength: 50 })),
    userId: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
