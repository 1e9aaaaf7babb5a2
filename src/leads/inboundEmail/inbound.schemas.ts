import { Type } from '@sinclair/typebox';
import { Nullable } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';

export const InboundEmail = Type.Object({
  id: Type.Integer(),
  receivedAt: Type.String(),
  from: Type.String(),
  to: Type.String({ description: 'the lead address it came to' }),
  subject: Type.String(),
  status: Type.String({ description: 'parsed, unparsed, ignored or rejected' }),
  parser: Nullable(Type.String({ description: 'the format it was read as (manual: by hand)' })),
  personId: Nullable(Type.Integer()),
  eventId: Nullable(Type.Integer()),
  userId: Nullable(Type.Integer({ description: 'the user whose address it came to' })),
  error: Nullable(Type.String({ description: 'why it was rejected or ignored' })),
  parsedAt: Nullable(Type.String({ description: 'null while waiting for the parser' })),
  rawPurgedAt: Nullable(
    Type.String({
      description: 'when the raw message was purged (HEARTH_INBOUND_RETENTION_DAYS); null: kept',
    }),
  ),
});

export const InboundEmailDetail = Type.Object({
  ...InboundEmail.properties,
  text: Type.String({ description: 'the message as plain text: no HTML, no remote content' }),
  suggestion: Type.Object(
    {
      name: Type.Optional(Type.String()),
      firstName: Type.Optional(Type.String()),
      lastName: Type.Optional(Type.String()),
      email: Type.Optional(Type.String()),
      phone: Type.Optional(Type.String()),
      address: Type.Optional(Type.String()),
      message: Type.Optional(Type.String()),
      source: Type.Optional(Type.String()),
    },
    { description: 'what could be read for a lead made by hand' },
  ),
});

export const INBOUND_STATUSES = ['parsed', 'unparsed', 'ignored', 'rejected'] as const;

export const InboundListQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Union(INBOUND_STATUSES.map((s) => Type.Literal(s)))),
    sort: Type.Optional(
      Type.String({ description: 'id or receivedAt; -field descending (default -id)' }),
    ),
  },
  { additionalProperties: false },
);

export const RotateBody = Type.Object(
  {
    scope: Type.Union([Type.Literal('account'), Type.Literal('user')], {
      description: "account: the account's address (Owner, Admin); user: the caller's own",
    }),
  },
  { additionalProperties: false },
);
