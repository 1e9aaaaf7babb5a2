import type { RouteOptions } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { GENERIC_ERROR } from '../../platform/http/schemas.js';

/**
 * The error statuses one operation can answer, derived from what the route declares (its auth
 * mode, role gate, path parameters, body, method) and from what its handler calls, rather than the
 * full list `responses()` puts on every route. Each status carries the reason it can occur.
 */
export interface RouteFacts {
  method: string;
  url: string;
  auth: 'user' | 'system' | 'none';
  gated: boolean;
  /** The roles the route's gate admits (absent: every role). */
  roles?: readonly string[];
  hasInput: boolean;
  hasBody: boolean;
  handlerSource: string;
}

export function routeFacts(route: RouteOptions, method: string): RouteFacts {
  const config = (route.config ?? {}) as {
    auth?: RouteFacts['auth'];
    gate?: { roles: readonly string[] };
  };
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const onV1 = route.url.startsWith('/v1/');
  return {
    method,
    url: route.url,
    auth: config.auth ?? (onV1 ? 'user' : 'none'),
    gated: Boolean(config.gate),
    roles: config.gate?.roles,
    hasInput: Boolean(
      schema.body || schema.querystring || schema.params || route.url.includes(':'),
    ),
    hasBody: Boolean(schema.body) || ['POST', 'PUT', 'PATCH'].includes(method),
    handlerSource: String(route.handler),
  };
}

/** Statuses a route's services answer that its declaration and handler do not show. */
const POND_MOVE = 'An Agent may move people only into ponds they belong to';
const EXTRA: Record<string, Record<number, string>> = {
  'POST /v1/people': { 403: POND_MOVE },
  'PUT /v1/people/:id': { 403: POND_MOVE },
  'PUT /v1/deals/:id': { 403: 'Lenders can read deals but not change them' },
  'GET /v1/notifications/stream': { 406: 'The request does not accept text/event-stream' },
  'POST /auth/login': {
    401: 'Wrong email or password',
    429: 'Too many failed sign-ins for this address; see Retry-After',
  },
};

const mentions = (facts: RouteFacts, pattern: RegExp) => pattern.test(facts.handlerSource);

/** status → why this operation can answer it; absent statuses cannot occur. */
export function errorStatuses(facts: RouteFacts): Map<number, string> {
  const out = new Map<number, string>();
  const onV1 = facts.url.startsWith('/v1/');
  const write = facts.method !== 'GET' && facts.method !== 'HEAD';
  out.set(
    400,
    facts.hasInput
      ? 'A parameter or the body is invalid; `errors` names the fields'
      : 'The request is malformed (URL encoding, framing)',
  );
  if (facts.auth !== 'none' || mentions(facts, /unauthorized|notSignedIn/))
    out.set(
      401,
      facts.auth === 'system'
        ? 'X-System and X-System-Key are missing or do not match a registered system'
        : 'No valid API key, access token or session',
    );
  if (facts.gated || mentions(facts, /forbidden|assertGate|assertMay|requireSystemKey|refuse|Csrf/))
    out.set(
      403,
      facts.gated
        ? "The caller's role may not do this"
        : 'The caller may not do this (role, visibility or ownership)',
    );
  if (facts.url.includes('/:') || mentions(facts, /notFound/))
    out.set(404, 'The record does not exist or is not visible to the caller');
  if ((onV1 && write) || mentions(facts, /conflict/))
    out.set(
      409,
      facts.method === 'POST' && onV1
        ? 'A conflicting record exists, or a request with this Idempotency-Key is still running'
        : 'A record with the same unique value exists',
    );
  if (facts.hasBody) {
    out.set(413, 'The body is larger than the limit');
    out.set(415, 'The body is not JSON (or another accepted content type)');
  }
  if (onV1 && facts.method === 'POST')
    out.set(422, 'This Idempotency-Key was used with a different request');
  if (onV1) out.set(429, 'Rate limit exceeded or server over capacity; see Retry-After');
  for (const [status, why] of Object.entries(EXTRA[`${facts.method} ${facts.url}`] ?? {}))
    out.set(Number(status), why);
  return new Map([...out].sort(([a], [b]) => a - b));
}

/**
 * The route's response schemas with the generic error statuses (`responses()`'s shared
 * ErrorResponse reference) replaced by those that can occur; route-specific error schemas stay.
 */
export function narrowResponses(
  response: Record<string, TSchema> | undefined,
  facts: RouteFacts,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(response ?? {})) {
    if (schema !== GENERIC_ERROR) out[status] = schema;
  }
  for (const [status, why] of errorStatuses(facts)) {
    if (out[status] === undefined)
      out[status] = { $ref: 'ErrorResponse', description: why } as unknown as TSchema;
  }
  return out;
}
