import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { AppContext } from '../../platform/context.js';
import { errorStatuses, narrowResponses, routeFacts, type RouteFacts } from './errors.js';
import { loadSchemaNames, nameComponents } from './components.js';
import { webhookComponents, webhooksSection } from './webhooks.js';
import { inboxAppEventsSection } from './inboxAppEvents.js';
import { describeDocument, documentInfo, documentParameters, TAGS } from './document.js';
import { registerDocsPage } from './docs-page.js';

/**
 * The OpenAPI document (served at /openapi.json, rendered at /docs) is built from the routes'
 * TypeBox schemas by @fastify/swagger; everything the schemas do not say (descriptions, examples,
 * the errors each operation can answer, security, component names, enums, webhooks) is added here,
 * so the resource folders stay as they are.
 */

type Security = Record<string, string[]>[];

/** Who may call the route: what its auth mode and its handler's system checks require. */
function securityOf(facts: RouteFacts): Security | undefined {
  if (facts.auth === 'none') return [];
  if (facts.auth === 'system') return [{ systemName: [], systemKey: [] }];
  const system: Record<string, string[]> = {};
  if (/requireSystem\(/.test(facts.handlerSource)) system.systemName = [];
  if (/requireSystemKey\(/.test(facts.handlerSource)) system.systemKey = [];
  if (!Object.keys(system).length) return undefined; // the document's default
  return [
    { basicAuth: [], ...system },
    { oauth2: [], ...system },
  ];
}

function transformRoute(route: RouteOptions): { schema: Record<string, unknown>; url: string } {
  const url = route.url;
  if (!route.schema || (route.schema as { hide?: boolean }).hide)
    return { schema: route.schema as Record<string, unknown>, url };
  const schema = { ...(route.schema as Record<string, unknown>) };
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const facts = routeFacts(route, String(methods[0]));
  if (schema.response || facts.url.startsWith('/v1/'))
    schema.response = narrowResponses(schema.response as never, facts);
  const security = securityOf(facts);
  if (security !== undefined && (facts.auth !== 'none' || !schema.security))
    schema.security = security;
  const errors = [...errorStatuses(facts).keys()];
  schema['x-hearth-route'] = { ...facts, handlerSource: undefined, errors };
  return { schema, url };
}

export async function registerOpenApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const names = await loadSchemaNames();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: documentInfo(),
      servers: [{ url: ctx.config.publicUrl }],
      tags: TAGS,
      components: {
        securitySchemes: {
          basicAuth: {
            type: 'http',
            scheme: 'basic',
            description: 'Your API key as the user name, any password (or none)',
          },
          oauth2: {
            type: 'oauth2',
            description:
              'Authorization code grant with PKCE for public clients (docs/oauth.md); the token ' +
              'carries the access of the user who authorized it. `scope` is accepted and ignored.',
            flows: {
              authorizationCode: {
                authorizationUrl: `${ctx.config.publicUrl}/oauth/authorize`,
                tokenUrl: `${ctx.config.publicUrl}/oauth/token`,
                refreshUrl: `${ctx.config.publicUrl}/oauth/token`,
                scopes: {},
              },
            },
          },
          systemName: {
            type: 'apiKey',
            in: 'header',
            name: 'X-System',
            description:
              'The name of the calling system (integration); also accepted as a `system` query ' +
              'argument or body key',
          },
          systemKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-System-Key',
            description:
              "The registered system's key: proves the X-System name (higher rate limits; " +
              'required to register webhooks, whose deliveries it signs)',
          },
        },
        parameters: documentParameters(),
        schemas: webhookComponents(),
      },
      security: [{ basicAuth: [] }, { oauth2: [] }],
      webhooks: {
        ...webhooksSection(ctx.config.signatureHeader),
        ...inboxAppEventsSection(ctx.config.signatureHeader),
      },
    } as never,
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `Schema${i}`,
    },
    transform: ({ route }) => transformRoute(route as RouteOptions),
    transformObject: (object) => {
      const { openapiObject } = object as { openapiObject: Record<string, unknown> };
      const document = openapiObject;
      nameComponents(document, names);
      describeDocument(document);
      return openapiObject as never;
    },
  });
  registerDocsPage(app);
}
