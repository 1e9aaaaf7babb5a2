import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import type { AppContext } from './context.js';
import { BODY_LIMIT, registerBodyParsers } from './http/body.js';
import {
  ApiError,
  frameworkErrorHandler,
  registerErrorHandling,
  sendError,
} from './http/errors.js';
import { registerAuth } from './http/auth.js';
import { registerGates } from './access/gates.js';
import { registerSystemIdentification } from './http/system.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerStrictness } from './http/strictness.js';
import { ErrorResponse } from './http/schemas.js';
import { routeModules } from './routes.js';
import {
  clientErrorHandler,
  connectionsCheckingInterval,
  registerEarlyErrorClose,
} from './http/connection.js';
import { serializeRequest } from './http/log-redaction.js';
import { schemaCompilers } from './http/schema-compilers.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerStrictIntegers } from './http/strict-integers.js';
import { registerOperationIds } from './http/operation-ids.js';
import { registerOpenApi } from './http/openapi/index.js';
import { registerContentEncoding } from './http/content-encoding.js';
import { registerRequestIdHeader, requestIdFor } from './http/request-id.js';
import { registerIdempotency } from './idempotency/idempotency.hooks.js';
import { registerMetrics } from './metrics/metrics.routes.js';

export interface BuildOptions {
  /** HTTPS material; omitted behind a TLS-terminating proxy (HEARTH_TRUST_PROXY=1). */
  https?: { key: string; cert: string };
  /** Told of every route as it is registered (the OpenAPI coverage test lists them). */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the whole API. It never listens: server.ts and the tests do that. */
export async function buildApp(
  ctx: AppContext,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const requestTimeout = ctx.config.requestTimeout * 1000;
  // Node checks request deadlines on this interval; the server options travel in `https`/`http`.
  const serverOptions = {
    connectionsCheckingInterval: connectionsCheckingInterval(requestTimeout),
    requestTimeout,
    headersTimeout: Math.min(requestTimeout, 60_000),
  };
  const app = Fastify({
    // URLs in log lines lose their secret query parameters (client_secret, code, token…).
    loggerInstance: ctx.log.child({}, { serializers: { req: serializeRequest } }),
    ...(options.https
      ? { https: { ...options.https, ...serverOptions } }
      : { http: serverOptions }),
    requestTimeout,
    clientErrorHandler,
    bodyLimit: BODY_LIMIT,
    trustProxy: ctx.config.trustProxy,
    requestIdHeader: false,
    genReqId: requestIdFor,
    frameworkErrors: frameworkErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: { compilersFactory: schemaCompilers },
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: false,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Before anything that can answer, so that every answer carries the headers.
  registerRequestIdHeader(app);
  await registerSecurityHeaders(app);
  registerEarlyErrorClose(app);
  registerStrictIntegers(app);
  registerOperationIds(app);
  registerContentEncoding(app);

  if (ctx.config.trustProxy) {
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers['x-forwarded-proto'] !== 'https') {
        return sendError(
          reply,
          new ApiError(
            403,
            'HTTPS_REQUIRED',
            'HTTPS is required: this request did not arrive over TLS',
          ),
        );
      }
    });
  }

  registerErrorHandling(app);
  registerBodyParsers(app);
  registerStrictness(app);
  app.addSchema(ErrorResponse);

  await registerOpenApi(app, ctx);

  registerAuth(app, ctx);
  registerGates(app);
  registerSystemIdentification(app, ctx);
  // After system identification: the bucket is the identified system.
  await registerRateLimit(app, ctx);
  // After authentication: keys belong to an account.
  registerIdempotency(app, ctx);
  registerMetrics(app, ctx);

  // Liveness: answers without touching the database (also the benchmark's hello-world baseline).
  app.get(
    '/livez',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['health'],
        summary: 'Liveness: answers without touching the database',
        security: [],
        response: {
          200: { type: 'object', properties: { status: { type: 'string' } } },
          // A malformed request (bad URL encoding, broken framing) is answered before routing.
          400: { $ref: 'ErrorResponse' },
        },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () =>
    app.swagger(),
  );
  app.get(
    '/health',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['health'],
        summary: 'Readiness: 200 when the database answers, 503 when it does not',
        security: [],
        response: {
          200: { type: 'object', properties: { status: { type: 'string' } } },
          400: { $ref: 'ErrorResponse' },
          503: { type: 'object', properties: { status: { type: 'string' } } },
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(ctx.db);
        return { status: 'ok' };
      } catch {
        return reply.code(503).send({ status: 'database unavailable' });
      }
    },
  );

  for (const routes of routeModules) await app.register(routes, { ctx });
  return app;
}
