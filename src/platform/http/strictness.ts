import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError, invalidFieldsMessage } from './errors.js';

/**
 * The real API's strictness, applied once for every route from its own schemas:
 * - unknown query parameters are ignored (clients send guesses such as `?pond=`), while a known
 *   one with a bad value is still refused by validation;
 * - query booleans are read case-insensitively (`True`, `FALSE`);
 * - unknown top-level body fields are refused with the real API's message naming all of them
 *   (`system` and `custom…` keys are declared by the schemas that accept them).
 */
interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, unknown>;
  additionalProperties?: unknown;
}

interface SchemaNode {
  type?: unknown;
  anyOf?: SchemaNode[];
  const?: unknown;
}

/** Decides which keys an object schema declares (its properties and pattern properties). */
function keyMatcher(schema: ObjectSchema): (key: string) => boolean {
  const names = new Set(Object.keys(schema.properties ?? {}));
  const patterns = Object.keys(schema.patternProperties ?? {}).map((p) => new RegExp(p, 'u'));
  return (key) => names.has(key) || patterns.some((p) => p.test(key));
}

/** `Type.Boolean()` or the API's `Bool()` union (which lists the literal "true"). */
function isBoolean(node: SchemaNode): boolean {
  if (node.type === 'boolean') return true;
  return Array.isArray(node.anyOf) && node.anyOf.some((branch) => branch.const === 'true');
}

function isClosedObject(schema: unknown): schema is ObjectSchema {
  const s = schema as ObjectSchema | undefined;
  return !!s && s.type === 'object' && !!s.properties && s.additionalProperties === false;
}

function queryNormalizer(schema: unknown) {
  if (!isClosedObject(schema)) return null;
  const known = keyMatcher(schema);
  const booleans = Object.entries(schema.properties ?? {})
    .filter(([, node]) => isBoolean(node))
    .map(([name]) => name);
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query) return;
    for (const key of Object.keys(query)) if (!known(key)) delete query[key];
    for (const name of booleans) {
      const value = query[name];
      if (typeof value === 'string') query[name] = value.toLowerCase();
    }
  };
}

/** The object a body schema describes, also when it is `object | null` (bodies DELETE may carry). */
function closedBodyObject(schema: unknown): ObjectSchema | null {
  if (isClosedObject(schema)) return schema;
  const branches = (schema as { anyOf?: unknown[] } | undefined)?.anyOf;
  if (!Array.isArray(branches)) return null;
  const objects = branches.filter((b) => (b as ObjectSchema).type === 'object');
  return objects.length === 1 && isClosedObject(objects[0]) ? objects[0] : null;
}

function bodyFieldCheck(schema: unknown) {
  const object = closedBodyObject(schema);
  if (!object) return null;
  const known = keyMatcher(object);
  return async (request: FastifyRequest) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    const unknown = Object.keys(body).filter((key) => !known(key));
    if (unknown.length === 0) return;
    throw new ApiError(
      400,
      'VALIDATION_FAILED',
      invalidFieldsMessage(unknown),
      unknown.map((field) => ({ field, message: `Unknown field '${field}'` })),
    );
  };
}

type Hook = (request: FastifyRequest) => Promise<void>;

function appendPreValidation(route: RouteOptions, hook: Hook): void {
  const existing = route.preValidation;
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  // Ahead of the route's own preValidation hooks: they may read the normalized query.
  route.preValidation = [hook, ...list] as RouteOptions['preValidation'];
}

/** Must run before any route is registered (onRoute sees only later routes). */
export function registerStrictness(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { querystring?: unknown; body?: unknown } | undefined;
    if (!schema) return;
    const query = queryNormalizer(schema.querystring);
    const body = bodyFieldCheck(schema.body);
    if (query) appendPreValidation(route, query);
    if (body) appendPreValidation(route, body);
  });
}
