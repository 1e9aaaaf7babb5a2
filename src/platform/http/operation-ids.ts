import type { FastifyInstance, RouteOptions } from 'fastify';

const VERBS: Record<string, string> = {
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
  HEAD: 'head',
  OPTIONS: 'options',
};

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A stable operationId from method and path: `GET /v1/people` → `getPeople`,
 * `GET /v1/people/:id` → `getPeopleById`, `POST /v1/people/:id/merge` → `createPeopleByIdMerge`.
 */
export function operationIdFor(method: string, url: string): string {
  const segments = url.split('/').filter((s) => s && s !== 'v1');
  const verb = method === 'GET' ? 'get' : VERBS[method];
  const words = segments.map((s) =>
    s.startsWith(':')
      ? `By${pascal(s.slice(1))}`
      : s
          .split(/[^A-Za-z0-9]+/)
          .map(pascal)
          .join(''),
  );
  return `${verb ?? method.toLowerCase()}${words.join('') || 'Root'}`;
}

/**
 * Every documented operation gets an operationId (and a description, from its summary when it has
 * none), set here once for all routes rather than in each route file.
 */
export function registerOperationIds(app: FastifyInstance): void {
  const used = new Set<string>();
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.schema || (route.schema as { hide?: boolean }).hide) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('HEAD') && methods.length === 1) return;
    // A copy: one schema object may serve several routes.
    const schema = { ...route.schema } as {
      operationId?: string;
      summary?: string;
      description?: string;
    };
    let id = schema.operationId ?? operationIdFor(String(methods[0]), route.url);
    for (let n = 2; used.has(id); n++)
      id = `${schema.operationId ?? operationIdFor(String(methods[0]), route.url)}${n}`;
    used.add(id);
    schema.operationId = id;
    if (!schema.description && schema.summary) schema.description = schema.summary;
    route.schema = schema;
  });
}
