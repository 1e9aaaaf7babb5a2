import { Type } from '@sinclair/typebox';
import { PageQuery } from '../../platform/http/pagination.js';
import { Nullable } from '../../platform/http/schemas.js';

export const System = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: 'what the system sends as X-System' }),
  created: Type.String({ description: 'when the operator registered it (admin create-system)' }),
  webhooks: Type.Integer({ description: "this account's webhooks registered by the system" }),
});

export const SystemListQuery = Type.Object(
  { ...PageQuery, system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const UsageQuery = Type.Object(
  {
    hours: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 168,
        description: 'hours to report, the current one included; default 24',
      }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const Counts = {
  totalRequests: Type.Integer(),
  rateLimitedRequests: Type.Integer(),
};

export const SystemUsage = Type.Object({
  system: Type.String(),
  from: Type.String({ description: 'start of the oldest hour reported' }),
  to: Type.String(),
  ...Counts,
  percentRateLimited: Type.Number(),
  peakHour: Nullable(Type.Object({ hour: Type.String(), requests: Type.Integer() })),
  hours: Type.Array(
    Type.Object({
      hour: Type.String({ description: 'start of the hour' }),
      ...Counts,
      contexts: Type.Record(Type.String(), Type.Integer(), {
        description: 'requests per rate-limit context in that hour',
      }),
    }),
    { description: 'one entry per hour, oldest first, zeros included' },
  ),
  enforced: Type.Boolean({ description: 'false when the operator turned rate limiting off' }),
  window: Type.Integer({ description: 'seconds of the sliding window' }),
  limits: Type.Object({
    withSystemKey: Type.Record(Type.String(), Nullable(Type.Integer())),
    withoutSystemKey: Type.Record(Type.String(), Nullable(Type.Integer())),
  }),
});
