import { Type } from '@sinclair/typebox';
import { PageQuery } from '../../platform/http/pagination.js';
import { Nullable, SystemField } from '../../platform/http/schemas.js';

export const WEBHOOK_STATUSES = ['Active', 'Disabled'] as const;

export const Webhook = Type.Object({
  id: Type.Integer(),
  event: Type.String(),
  url: Type.String(),
  status: Type.String({ description: 'Active, or Disabled (automatically or by an Owner)' }),
  created: Type.String(),
  updated: Type.String(),
  system: Type.String({ description: 'The system that registered it' }),
});

export const WebhookListQuery = Type.Object(
  {
    ...PageQuery,
    event: Type.Optional(Type.String()),
    status: Type.Optional(Type.Union(WEBHOOK_STATUSES.map((s) => Type.Literal(s)))),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const SystemQuery = Type.Object(
  { system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const AttemptsQuery = Type.Object(
  { ...PageQuery, system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const CreateWebhookBody = Type.Object(
  {
    event: Type.String({ description: 'An event name from the interface (e.g. peopleCreated)' }),
    url: Type.String({ description: 'HTTPS callback URL' }),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Object(
  {
    event: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    status: Type.Optional(Type.Union(WEBHOOK_STATUSES.map((s) => Type.Literal(s)))),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const Attempt = Type.Object({
  id: Type.Integer(),
  eventId: Type.String(),
  event: Type.String(),
  attempt: Type.Integer({
    description: '1 for the first try of a delivery, 2 for the first retry…',
  }),
  created: Type.String({ description: 'when the request was sent' }),
  success: Type.Boolean(),
  statusCode: Nullable(Type.Integer()),
  latencyMs: Type.Integer(),
  error: Nullable(Type.String()),
  response: Nullable(Type.String({ description: 'the first 1 KiB of the answer' })),
});

export const EventIdParams = Type.Object({
  id: Type.String({
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    description: 'eventId (UUID)',
  }),
});

export const WebhookEvent = Type.Object({
  eventId: Type.String(),
  eventCreated: Type.String(),
  event: Type.String(),
  resourceIds: Type.Array(Type.Integer()),
  uri: Nullable(Type.String()),
  data: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export const RedeliverResult = Type.Object({
  eventId: Type.String(),
  webhookIds: Type.Array(Type.Integer(), {
    description: 'the webhooks the event is being sent to again',
  }),
});
