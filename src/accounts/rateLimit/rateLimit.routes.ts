import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { unauthorized } from '../../platform/http/errors.js';
import { responses } from '../../platform/http/schemas.js';
import { Nullable } from '../../platform/http/schemas.js';

const tags = ['rateLimit'];

const SystemQuery = Type.Object(
  { system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

const TierLimits = Type.Record(Type.String(), Nullable(Type.Integer()), {
  description: 'limit per context for 10 seconds; null: unlimited (counted, never refused)',
});

const LimitsFields = {
  system: Type.String(),
  enforced: Type.Boolean({ description: 'false when the operator turned rate limiting off' }),
  window: Type.Integer({ description: 'seconds of the sliding window' }),
  limits: Type.Object({ withSystemKey: TierLimits, withoutSystemKey: TierLimits }),
};

const Totals = {
  totalRequests: Type.Integer(),
  rateLimitedRequests: Type.Integer(),
  percentRateLimited: Type.Number(),
  peakHour: Nullable(Type.Object({ hour: Type.String(), requests: Type.Integer() })),
};

const Limits = Type.Object(LimitsFields);
const Usage = Type.Object({
  system: Type.String(),
  from: Type.String({ description: 'start of the oldest hour counted' }),
  to: Type.String(),
  ...Totals,
  contexts: Type.Array(Type.Object({ context: Type.String(), ...Totals })),
  enforced: LimitsFields.enforced,
  window: LimitsFields.window,
  limits: LimitsFields.limits,
});

/** These endpoints authenticate with X-System + X-System-Key only and report on that system alone. */
function verifiedSystem(request: FastifyRequest): string {
  if (!request.system.name || !request.system.verified) {
    throw unauthorized(
      'Send X-System and a valid X-System-Key: rate limit usage is reported to the registered system only',
    );
  }
  return request.system.name;
}

export const rateLimitRoutes: RoutePlugin = async (app) => {
  const limiter = app.rateLimiter;

  app.get(
    '/v1/rateLimit/usage',
    {
      config: { auth: 'system' },
      schema: {
        tags,
        summary:
          "24-hour rolling usage of the caller's system, per context, with the limits in force",
        security: [],
        querystring: SystemQuery,
        response: responses({ 200: Usage }),
      },
    },
    async (request) => limiter.usageReport(verifiedSystem(request)),
  );

  app.get(
    '/v1/rateLimit/limits',
    {
      config: { auth: 'system' },
      schema: {
        tags,
        summary: "The limits in force for the caller's system",
        security: [],
        querystring: SystemQuery,
        response: responses({ 200: Limits }),
      },
    },
    async (request) => {
      const system = verifiedSystem(request);
      return { system, ...limiter.describeLimits(system) };
    },
  );
};
