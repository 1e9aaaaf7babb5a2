import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { sql } from 'kysely';
import type { AppContext } from './context.js';
import { BODY_LIMIT, registerBodyParsers } from './http/body.js';
import { ApiError, frameworkErrorHandler, registerErrorHandling, sendError } from './http/errors.js';
import { registerAuth } from './http/auth.js';
import { registerSystemIdentification } from './http/system.js';
import { registerRateLimit } from './http/rate-limit.js';
import { ErrorResponse } from './http/schemas.js';
import { routeModules } from './routes.js';

export interface BuildOptions {
  /** HTTPS material; omitted behind a TLS-terminating proxy (HEARTH_TRUST_PROXY=1). */
  https?: { key: string; cert: string };
}

/** Builds the whole API. It never listens: server.ts and the tests do that. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    ...(options.https ? { https: options.https } : {}),
    bodyLimit: BODY_LIMIT,
    trustProxy: ctx.config.trustProxy,
    requestIdHeader: false,
    frameworkErrors: frameworkErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (ctx.config.trustProxy) {
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers['x-forwarded-proto'] !== 'https') {
        return sendError(reply, new ApiError(403, 'HTTPS_REQUIRED', 'HTTPS is required: this request did not arrive over TLS'));
      }
    });
  }

  registerErrorHandling(app);
  registerBodyParsers(app);
  app.addSchema(ErrorResponse);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Hearth API',
        version: '1.0.0',
        description: 'Contact and lead management for real-estate teams. Authenticate with HTTP Basic: your API key as user name, any password.',
      },
      servers: [{ url: ctx.config.publicUrl }],
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'basic' }, oauthToken: { type: 'http', scheme: 'bearer', description: 'OAuth 2.0 access token from POST /oauth/token (docs/oauth.md)' } } },
      security: [{ apiKey: [] }, { oauthToken: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  registerAuth(app, ctx);
  registerSystemIdentification(app, ctx);
  // After system identification: the bucket is the identified system.
  await registerRateLimit(app, ctx);

  // Liveness: answers without touching the database (also the benchmark's hello-world baseline).
  app.get('/livez', { config: { auth: 'none' }, schema: { tags: ['health'], security: [], response: { 200: { type: 'object', properties: { status: { type: 'string' } } } } } }, async () => ({ status: 'ok' }));
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());
  app.get(
    '/health',
    { config: { auth: 'none' }, schema: { tags: ['health'], security: [], response: { 200: { type: 'object', properties: { status: { type: 'string' } } }, 503: { type: 'object', properties: { status: { type: 'string' } } } } } },
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
