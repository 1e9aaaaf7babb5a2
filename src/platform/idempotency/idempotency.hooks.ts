import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AppContext } from '../context.js';
import type { AuthUser } from '../http/auth-user.js';
import { ApiError, badRequest } from '../http/errors.js';
import { addRouteHook, routeMethods } from '../http/route-hooks.js';
import { type IdempotencyScope, idempotencyScope, keyInUse } from './claim.js';
import {
  type StoredAnswer,
  KEY_LIFETIME_MS,
  deleteKey,
  findKey,
  storeClaimedAnswer,
  storeUnclaimedAnswer,
} from './idempotency.repo.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyScope | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const ACCEPTABLE_KEY = /^[\x21-\x7e]{1,255}$/;
/** Answer headers a replay repeats (the rest, such as rate-limit state, describe the new request). */
const REPLAYED_HEADERS = ['content-type', 'location'];
/** How long after its request began a committed key may still be waiting for its answer. */
const ANSWER_GRACE_MS = 10_000;
/** Transient answers (collisions, limits, server errors) are not kept when no work was committed. */
const TRANSIENT = new Set([409, 429]);

/**
 * Keys belong to the credential that sent them (a user's API key, OAuth grant or session), not to
 * the account: another user's request with the same key and body must never get this answer.
 */
function credentialKey(auth: AuthUser, key: string): string {
  return `${auth.credential ?? `${auth.userId}:key`}\n${key}`;
}

function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('base64url');
}

const differentRequest = () =>
  new ApiError(
    422,
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was used with a different request (method, URL or body); use a new key',
  );

const answerLost = () =>
  new ApiError(
    409,
    'IDEMPOTENCY_ANSWER_LOST',
    'The request with this Idempotency-Key was applied, but the server stopped before storing its ' +
      'answer; read the result instead of retrying',
  );

function replay(reply: FastifyReply, status: number, headers: string | null, body: string | null) {
  reply.headers(JSON.parse(headers ?? '{}') as Record<string, string>);
  reply.header('idempotent-replayed', 'true');
  return reply.code(status).send(body ?? '');
}

/**
 * `Idempotency-Key` on every POST under /v1 (Stripe's semantics): the first request's status and
 * body are kept per credential for 24 hours; a retry with the same key and request gets them back
 * without the work being done again; the same key with another request is a 422; a retry while
 * the first is running is a 409.
 */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  const inFlight = new Map<string, string>();
  const flightKey = (scope: IdempotencyScope) => `${scope.accountId}\n${scope.key}`;
  app.decorateRequest('idempotency', null);

  const claimKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined || request.method !== 'POST') return;
    if (typeof key !== 'string' || !ACCEPTABLE_KEY.test(key))
      throw badRequest(
        'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is ideal)',
      );
    const nowMs = ctx.clock.now();
    const scope: IdempotencyScope = {
      accountId: request.auth.accountId,
      key: credentialKey(request.auth, key),
      fingerprint: fingerprintOf(request),
      createdAt: new Date(nowMs).toISOString(),
      claimed: false,
      closed: false,
    };
    const running = inFlight.get(flightKey(scope));
    if (running !== undefined)
      throw running === scope.fingerprint ? keyInUse() : differentRequest();
    let row = await findKey(ctx.db, scope.accountId, scope.key);
    if (row && Date.parse(row.created_at) < nowMs - KEY_LIFETIME_MS) {
      await deleteKey(ctx.db, scope.accountId, scope.key);
      row = undefined;
    }
    if (row) {
      if (row.fingerprint !== scope.fingerprint) throw differentRequest();
      if (row.status !== null)
        return replay(reply, row.status, row.response_headers, row.response_body);
      // Committed, answer not stored yet: normally a matter of milliseconds, unless the process
      // that did the work stopped in between.
      const answering = Date.parse(row.created_at) > nowMs - ANSWER_GRACE_MS;
      throw answering ? keyInUse() : answerLost();
    }
    inFlight.set(flightKey(scope), scope.fingerprint);
    request.idempotency = scope;
  };

  // The handler runs inside the scope, so its first committed transaction claims the key.
  const runInScope = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    if (request.idempotency) idempotencyScope.run(request.idempotency, done);
    else done();
  };

  const storeAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const scope = request.idempotency;
    if (!scope || scope.closed) return payload;
    scope.closed = true;
    const status = reply.statusCode;
    if (!scope.claimed && (status >= 500 || TRANSIENT.has(status))) return payload;
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : '';
    const answer: StoredAnswer = { status, headers, body };
    try {
      if (scope.claimed) await storeClaimedAnswer(ctx.db, scope.accountId, scope.key, answer);
      else await storeUnclaimedAnswer(ctx.db, scope, answer);
    } catch (err) {
      request.log.error({ err }, 'could not store the answer of an idempotent request');
    }
    return payload;
  };

  const release = async (request: FastifyRequest) => {
    if (request.idempotency) inFlight.delete(flightKey(request.idempotency));
  };

  // Only on the POST routes under /v1: no other request can carry a key that counts.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/v1/') || !routeMethods(route).includes('POST')) return;
    addRouteHook(route, 'preHandler', claimKey);
    addRouteHook(route, 'preHandler', runInScope);
    addRouteHook(route, 'onSend', storeAnswer);
    addRouteHook(route, 'onResponse', release);
    addRouteHook(route, 'onRequestAbort', release);
  });
}
