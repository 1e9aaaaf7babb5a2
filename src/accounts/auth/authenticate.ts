import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { hashSecret } from '../keys.js';
import { reusableQuery } from '../../platform/db/reusable-query.js';
import { ApiError, unauthorized } from '../../platform/http/errors.js';
import { authenticateBearer, bearerTokenFrom } from '../oauth/bearer.js';
import {
  findSession,
  forgetUserSessions,
  knownSession,
  requireCsrfToken,
  type SessionUser,
  sessionIdFrom,
} from './sessions.js';
import { VerifiedSecrets } from './verified-secrets.js';

import type { AuthUser } from '../../platform/http/auth-user.js';
export type { AuthUser, UserRole } from '../../platform/http/auth-user.js';

export type AuthVia = 'apiKey' | 'bearer' | 'session';

/** `user` (default on /v1): an API key. `system`: X-System + X-System-Key only. `none`: public. */
export type AuthMode = 'user' | 'system' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthUser;
    /** How request.auth was established: 'session' is the web app (cookie + CSRF token). */
    authVia: AuthVia | null;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}

/** Reads the API key from HTTP Basic (key as user name, any password). */
export function apiKeyFrom(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value] = header.split(' ', 2);
  if (scheme?.toLowerCase() !== 'basic' || !value) return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const key = colon === -1 ? decoded : decoded.slice(0, colon);
  return key || null;
}

const userByKeyHash = reusableQuery((db, _shape, keyHash: string) =>
  db
    .selectFrom('users')
    .select(['id', 'account_id', 'role', 'name', 'email'])
    .where('api_key_hash', '=', keyHash)
    .where('deleted_at', 'is', null),
);

/**
 * Verified keys for a few seconds (VerifiedSecrets), found by the Authorization header's first
 * KEY_INDEX_CHARS characters (the key's prefix and about 54 of its 256 random bits). A role change
 * or deactivation through the API forgets the user here at once (forgetCachedUser); other API
 * instances see it within 5 s.
 */
const KEY_INDEX_CHARS = 'Basic '.length + 16;
const keyCaches = new WeakMap<AppContext, VerifiedSecrets<AuthUser>>();

function keyCacheOf(ctx: AppContext): VerifiedSecrets<AuthUser> {
  let cache = keyCaches.get(ctx);
  if (!cache) keyCaches.set(ctx, (cache = new VerifiedSecrets(KEY_INDEX_CHARS)));
  return cache;
}

/** Forgets a user's verified key and sessions after their role changed or they were deactivated. */
export function forgetCachedUser(ctx: AppContext, userId: number): void {
  keyCacheOf(ctx).forget((user) => user.userId === userId);
  forgetUserSessions(userId);
}

/**
 * A browser's own request (fetch from a page) gets no Basic challenge: it would pop up the
 * browser's password prompt over the web app.
 */
function fromBrowserScript(request: FastifyRequest): boolean {
  const mode = request.headers['sec-fetch-mode'];
  return typeof mode === 'string' && mode !== 'navigate';
}

const signInAgain = (message: string) => new ApiError(401, 'NOT_SIGNED_IN', message);

/** The caller a session stands for, made once per verified session (it is kept a few seconds). */
const sessionCallers = new WeakMap<SessionUser, AuthUser>();

function callerOf(session: SessionUser): AuthUser {
  let caller = sessionCallers.get(session);
  if (!caller) {
    const { accountId, userId, role, name, email, sessionRowId } = session;
    caller = Object.freeze({
      accountId,
      userId,
      role,
      name,
      email,
      via: 'session' as const,
      credential: `${userId}:session:${sessionRowId}`,
    });
    sessionCallers.set(session, caller);
  }
  return caller;
}

/**
 * The web app's requests: the session cookie, and the CSRF token on writes. A session verified in
 * the last few seconds is answered without waiting on anything (the web app's every request).
 */
function authenticateSession(
  ctx: AppContext,
  request: FastifyRequest,
  sessionId: string,
): AuthUser | Promise<AuthUser> {
  const known = knownSession(sessionId, ctx.clock.now());
  if (known) {
    requireCsrfToken(request, sessionId);
    return callerOf(known);
  }
  return findSession(ctx.db, sessionId, ctx.clock.now()).then((session) => {
    if (!session) throw signInAgain('Your session has ended; sign in again');
    requireCsrfToken(request, sessionId);
    return callerOf(session);
  });
}

function authViaOf(request: FastifyRequest): AuthVia {
  if (!request.headers.authorization) return 'session';
  return bearerTokenFrom(request) !== undefined ? 'bearer' : 'apiKey';
}

export async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<AuthUser> {
  const bearer = bearerTokenFrom(request);
  if (bearer !== undefined) return authenticateBearer(ctx, bearer);
  if (!request.headers.authorization) {
    const sessionId = sessionIdFrom(request);
    if (sessionId) return authenticateSession(ctx, request, sessionId);
    if (fromBrowserScript(request)) throw signInAgain('Not signed in');
  }
  const header = request.headers.authorization;
  const now = Date.now();
  const cache = keyCacheOf(ctx);
  const cached = header === undefined ? undefined : cache.get(header, now);
  if (cached) return cached;
  const key = apiKeyFrom(request.headers.authorization);
  if (!key || header === undefined) {
    const scheme = request.headers.authorization?.split(' ', 1)[0];
    throw unauthorized(
      scheme && scheme.toLowerCase() !== 'basic'
        ? `Unsupported authorization scheme '${scheme}'; send your API key with HTTP Basic (key as user name)`
        : 'Missing API key; send it with HTTP Basic authentication (key as user name, empty password)',
    );
  }
  // Looked up by its SHA-256: the key itself is never stored in the database, and a hash lookup reveals nothing about it.
  const keyHash = hashSecret(key);
  const user = await userByKeyHash(ctx.db, 'user', keyHash);
  if (!user) throw unauthorized('Invalid API key');
  const auth: AuthUser = Object.freeze({
    accountId: user.account_id,
    userId: user.id,
    role: user.role,
    name: user.name,
    email: user.email,
  });
  cache.set(header, auth, now);
  return auth;
}

export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('auth', null as unknown as AuthUser);
  app.decorateRequest('authVia', null);
  app.addHook('onRequest', async (request) => {
    const mode =
      request.routeOptions.config?.auth ?? (request.url.startsWith('/v1/') ? 'user' : 'none');
    if (mode !== 'user') return;
    request.auth = await authenticate(ctx, request);
    request.authVia = authViaOf(request);
  });
}
