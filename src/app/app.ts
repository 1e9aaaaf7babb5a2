import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { lazyChildLogger } from '../platform/http/lazy-logger.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import type { AppContext } from '../platform/context.js';
import { BODY_LIMIT, registerBodyParsers } from '../platform/http/body.js';
import {
  ApiError,
  frameworkErrorHandler,
  registerErrorHandling,
  sendError,
} from '../platform/http/errors.js';
import { registerAuth } from '../accounts/auth/authenticate.js';
import { registerGates } from '../access/gates.js';
import { registerSystemIdentification } from '../accounts/systems/system-identification.js';
import { registerRateLimit } from '../accounts/rateLimit/rate-limit.hook.js';
import { registerStrictness } from '../platform/http/strictness.js';
import { ErrorResponse } from '../platform/http/schemas.js';
import { routeModules } from './routes.js';
import {
  clientErrorHandler,
  connectionsCheckingInterval,
  registerEarlyErrorClose,
} from '../platform/http/connection.js';
import { serializeRequest } from '../platform/http/log-redaction.js';
import { schemaCompilers } from '../platform/http/schema-compilers.js';
import { registerSecurityHeaders } from '../platform/http/security-headers.js';
import { registerStrictIntegers } from '../platform/http/strict-integers.js';
import { registerOperationIds } from '../platform/http/operation-ids.js';
import { registerOpenApi } from './openapi/index.js';
import { registerContentEncoding } from '../platform/http/content-encoding.js';
import { registerRequestIdHeader, requestIdFor } from '../platform/http/request-id.js';
import { originForm } from '../platform/http/request-target.js';
import { registerIdempotency } from '../platform/idempotency/idempotency.hooks.js';
import { registerMetrics } from '../platform/metrics/metrics.routes.js';
import { dueJobs } from '../platform/jobs/jobs.due.js';
import { dueDeliveries } from '../accounts/webhooks/webhooks.due.js';

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
  // Node's default lets a connection sit in its TLS handshake for 120 s.
  const tlsOptions = { handshakeTimeout: ctx.config.tlsHandshakeTimeout * 1000 };
  const app = Fastify({
    // URLs in log lines lose their secret query parameters (client_secret, code, token…).
    loggerInstance: ctx.log.child({}, { serializers: { req: serializeRequest } }),
    childLoggerFactory: lazyChildLogger,
    ...(options.https
      ? { https: { ...options.https, ...tlsOptions, ...serverOptions } }
      : { http: serverOptions }),
    requestTimeout,
    clientErrorHandler,
    bodyLimit: BODY_LIMIT,
    // One hop: the client address is the one the proxy appended (the rightmost X-Forwarded-For
    // entry); entries to its left are whatever the client sent.
    trustProxy: ctx.config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    rewriteUrl: originForm,
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

  // Connections past the cap are closed as they arrive, before any TLS or HTTP work.
  app.server.maxConnections = ctx.config.maxConnections;
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Before anything that can answer, so that every answer carries the headers.
  registerRequestIdHeader(app);
  registerSecurityHeaders(app);
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
  registerMetrics(app, ctx, [dueDeliveries, dueJobs]);

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
