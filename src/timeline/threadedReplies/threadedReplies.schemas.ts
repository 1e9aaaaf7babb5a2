import { Type } from '@sinclair/typebox';
import { SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';

const ReplyText = Type.String({ minLength: 1, maxLength: 20_000 });
export const ThreadedReplyCreateBody = Type.Object(
  {
    refType: Type.String({ minLength: 1, maxLength: 50 }),
    refId: Type.Integer({ minimum: 1 }),
    body: ReplyText,
    ...SystemField,
  },
  { additionalProperties: false },
);
export const ThreadedReplyUpdateBody = Type.Object(
  { body: ReplyText, ...SystemField },
  { additionalProperties: false },
);
export const ThreadedReplyListQuery = Type.Object(
  {
    ...PageQuery,
    refType: Type.Optional(Type.String({ maxLength: 50 })),
    refId: Type.Optional(Type.Integer({ minimum: 1 })),
    sort: Type.Optional(Type.String()),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
