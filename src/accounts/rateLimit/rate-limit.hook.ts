import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { apiKeyFrom } from '../auth/authenticate.js';
import { ApiError } from '../../platform/http/errors.js';
import { identifySystem } from '../systems/system-identification.js';
import { classify, CONTEXTS, WINDOW_SECONDS } from './limits.js';
import { RateLimiter } from './limiter.js';
import { CapacityGuard } from './capacity.js';
import { CLAIMED_SYSTEM, type Decision, KEY_BUCKET, VERIFIED_SYSTEM } from './window.js';

/** The limiter's verdict on one request, also what the response headers show. */
export interface RateLimitState extends Decision {
  context: number;
  /** null: unlimited context */
  limit: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    rateLimit: RateLimitState | null;
  }
  interface FastifyInstance {
    rateLimiter: RateLimiter;
    capacityGuard: CapacityGuard;
    /** Counts an in-process call of a /v1 route (an MCP tool's) as the request would count. */
    chargeInProcess(call: InProcessCall): Promise<void>;
  }
}

/** Shown as the limit of an unlimited context (POST.events): a number every client can parse. */
const UNLIMITED = 2_147_483_647;

export interface CapacityOptions {
  /** Event-loop lag (ms), seen twice in a row, above which /v1 requests are refused with 429 for a moment. */
  maxLagMs?: number;
}

function isV1(url: string): boolean {
  return url.charCodeAt(1) === 118 /* v */ && url.startsWith('/v1/');
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** A /v1 route called in this process for an authenticated caller (MCP tools call them so). */
export interface InProcessCall {
  method: string;
  /** The route's path pattern, as Fastify knows it: '/v1/people/:id'. */
  route: string;
  /** The caller's Authorization header: the call takes from the same bucket as their requests. */
  authorization: string;
}

/** No system named: one bucket per presented credential (its hash, never the key), else per address. */
function credentialBucket(authorization: string | undefined, ip: string): string {
  if (!authorization) return `ip:${ip}`;
  return createHash('sha256')
    .update(apiKeyFrom(authorization) ?? authorization)
    .digest('base64url');
}

function overCapacity(guard: CapacityGuard): ApiError {
  const seconds = guard.retryAfterSeconds();
  return new ApiError(
    429,
    'OVER_CAPACITY',
    `The service is temporarily over capacity; retry after ${seconds} seconds`,
    undefined,
    { 'Retry-After': String(seconds) },
  );
}

function rateLimited(state: RateLimitState, limit: number): ApiError {
  const seconds = retryAfterSeconds(state);
  return new ApiError(
    429,
    'RATE_LIMITED',
    `Rate limit exceeded for context '${CONTEXTS[state.context]}': ${limit} requests per ${WINDOW_SECONDS} seconds; retry after ${seconds} second${seconds === 1 ? '' : 's'}`,
    undefined,
    { 'Retry-After': String(seconds) },
  );
}

function retryAfterSeconds(state: Decision): number {
  return Math.max(1, Math.ceil(state.resetMs / 1000));
}

function setHeaders(reply: FastifyReply, state: RateLimitState): void {
  const context = CONTEXTS[state.context];
  const reset = Math.max(0, Math.ceil(state.resetMs / 1000));
  reply.header('X-RateLimit-Window', WINDOW_SECONDS);
  reply.header('X-RateLimit-Context', context);
  if (state.limit === null) {
    reply.header('X-RateLimit-Limit', UNLIMITED);
    reply.header('X-RateLimit-Remaining', UNLIMITED);
    return;
  }
  reply.header('X-RateLimit-Limit', state.limit);
  reply.header('X-RateLimit-Remaining', state.remaining);
  // draft-ietf-httpapi-ratelimit-headers: the policy in force and what is left of it.
  reply.header('RateLimit-Policy', `"${context}";q=${state.limit};w=${WINDOW_SECONDS}`);
  reply.header('RateLimit', `"${context}";r=${state.remaining};t=${reset}`);
}

/**
 * Per-system sliding-window limits on /v1 (interface part 8), usage counting, and temporary
 * capacity protection. Registered after system identification: the bucket is the identified system.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  ctx: AppContext,
  capacity: CapacityOptions = {},
): Promise<void> {
  const limiter = await RateLimiter.create(ctx);
  app.decorate('rateLimiter', limiter);
  app.decorateRequest('rateLimit', null);
  app.addHook('onClose', async () => limiter.close());

  // Temporary capacity protection, on whether or not limits are enforced.
  const guard = new CapacityGuard(capacity.maxLagMs ?? 1000);
  app.decorate('capacityGuard', guard);
  app.addHook('onListen', async () => guard.start());
  app.addHook('onClose', async () => guard.stop());
  app.addHook('onRequest', (request, _reply, done) => {
    if (!guard.overloaded || !isV1(request.url)) return done();
    done(overCapacity(guard));
  });

  if (!limiter.enforced) {
    app.decorate('chargeInProcess', async () => {
      if (guard.overloaded) throw overCapacity(guard);
    });
    return;
  }
  limiter.start();
  const { store, usage } = limiter;

  const bucketFor = (request: FastifyRequest, out: { kind: number; id: string }) => {
    const { name, verified } = request.system;
    if (name !== null) {
      out.kind = verified ? VERIFIED_SYSTEM : CLAIMED_SYSTEM;
      out.id = name;
    } else {
      out.kind = KEY_BUCKET;
      out.id = credentialBucket(request.headers.authorization, request.ip);
    }
    return out;
  };

  app.addHook('preValidation', async (request) => {
    if (!isV1(request.url)) return;
    const { name, verified } = request.system;
    const context = classify(
      request.method,
      request.routeOptions.url ?? pathOf(request.url),
      verified,
    );
    const limit = limiter.table.row(name, verified)[context];
    const state: RateLimitState = { context, limit, allowed: true, remaining: 0, resetMs: 0 };
    request.rateLimit = state;
    const now = ctx.clock.now();
    if (limit !== null) {
      const bucket = bucketFor(request, { kind: 0, id: '' });
      const pending = store.hit(bucket.kind, bucket.id, context, limit, now, state);
      if (pending !== undefined) await pending;
    }
    if (name !== null) usage.count(name, context, !state.allowed, now);
    if (!state.allowed) throw rateLimited(state, limit!);
  });

  // No system is named in process: the caller's credential is the bucket, as for their requests.
  app.decorate('chargeInProcess', async (call: InProcessCall) => {
    if (guard.overloaded) throw overCapacity(guard);
    const context = classify(call.method, call.route, false);
    const limit = limiter.table.row(null, false)[context];
    if (limit === null) return;
    const state: RateLimitState = { context, limit, allowed: true, remaining: 0, resetMs: 0 };
    const bucket = credentialBucket(call.authorization, '');
    const pending = store.hit(KEY_BUCKET, bucket, context, limit, ctx.clock.now(), state);
    if (pending !== undefined) await pending;
    if (!state.allowed) throw rateLimited(state, limit);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    let state = request.rateLimit ?? null; // undefined on routes of plugins registered before this hook (the docs UI)
    if (state === null) {
      if (!isV1(request.url)) return payload;
      // Answered before the limiter ran (credentials, body parsing, capacity): show the window, count nothing.
      if (!request.system) request.system = await identifySystem(ctx, request);
      const { name, verified } = request.system;
      const context = classify(
        request.method,
        request.routeOptions.url ?? pathOf(request.url),
        verified,
      );
      const limit = limiter.table.row(name, verified)[context];
      state = { context, limit, allowed: true, remaining: limit ?? 0, resetMs: 0 };
      if (limit !== null) {
        const bucket = bucketFor(request, { kind: 0, id: '' });
        await store.peek(bucket.kind, bucket.id, context, limit, ctx.clock.now(), state);
      }
    }
    setHeaders(reply, state);
    return payload;
  });
}
