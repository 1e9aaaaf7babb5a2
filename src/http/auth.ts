import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { UsersTable } from '../db/database.js';
import { hashSecret } from '../accounts/keys.js';
import { reusableQuery } from '../db/reusable-query.js';
import { forbidden, unauthorized } from './errors.js';
import { authenticateBearer, bearerTokenFrom } from '../oauth/bearer.js';

export type UserRole = UsersTable['role'];

export interface AuthUser {
  accountId: number;
  userId: number;
  role: UserRole;
  name: string;
  email: string;
}

/** `user` (default on /v1): an API key. `system`: X-System + X-System-Key only. `none`: public. */
export type AuthMode = 'user' | 'system' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthUser;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}

/** Reads the API key from HTTP Basic (key as user name, any password). */
export function apiKeyFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, value] = header.split(' ', 2);
  if (scheme?.toLowerCase() !== 'basic' || !value) return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const key = colon === -1 ? decoded : decoded.slice(0, colon);
  return key || null;
}

const userByKeyHash = reusableQuery((db, _shape, keyHash: string) =>
  db.selectFrom('users').select(['id', 'account_id', 'role', 'name', 'email']).where('api_key_hash', '=', keyHash),
);

/**
 * Verified keys, by hash, for a few seconds: the key lookup would otherwise be a database read on
 * every request. Hearth never changes a user's key or role through the API; an operator's direct
 * change reaches every instance within KEY_CACHE_MS. Unknown keys are never cached.
 */
const KEY_CACHE_MS = 5_000;
const KEY_CACHE_MAX = 10_000;
type KeyCache = Map<string, { user: AuthUser; until: number }>;
const keyCaches = new WeakMap<AppContext, KeyCache>();

function keyCacheOf(ctx: AppContext): KeyCache {
  let cache = keyCaches.get(ctx);
  if (!cache) keyCaches.set(ctx, (cache = new Map()));
  return cache;
}

function cachedUser(verifiedKeys: KeyCache, keyHash: string, now: number): AuthUser | undefined {
  const entry = verifiedKeys.get(keyHash);
  if (!entry) return undefined;
  if (entry.until > now) return entry.user;
  verifiedKeys.delete(keyHash);
  return undefined;
}

function rememberUser(verifiedKeys: KeyCache, keyHash: string, user: AuthUser, now: number): void {
  if (verifiedKeys.size >= KEY_CACHE_MAX) verifiedKeys.delete(verifiedKeys.keys().next().value as string);
  verifiedKeys.set(keyHash, { user, until: now + KEY_CACHE_MS });
}

export async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<AuthUser> {
  const bearer = bearerTokenFrom(request);
  if (bearer !== undefined) return authenticateBearer(ctx, bearer);
  const key = apiKeyFrom(request);
  if (!key) {
    const scheme = request.headers.authorization?.split(' ', 1)[0];
    throw unauthorized(
      scheme && scheme.toLowerCase() !== 'basic'
        ? `Unsupported authorization scheme '${scheme}'; send your API key with HTTP Basic (key as user name)`
        : 'Missing API key; send it with HTTP Basic authentication (key as user name, empty password)',
    );
  }
  // Looked up by its SHA-256: the key itself is never stored, and a hash lookup reveals nothing about it.
  const keyHash = hashSecret(key);
  const now = Date.now();
  const cache = keyCacheOf(ctx);
  const cached = cachedUser(cache, keyHash, now);
  if (cached) return cached;
  const user = await userByKeyHash(ctx.db, 'user', keyHash);
  if (!user) throw unauthorized('Invalid API key');
  const auth: AuthUser = Object.freeze({ accountId: user.account_id, userId: user.id, role: user.role, name: user.name, email: user.email });
  rememberUser(cache, keyHash, auth, now);
  return auth;
}

export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('auth', null as unknown as AuthUser);
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth ?? (request.url.startsWith('/v1/') ? 'user' : 'none');
    if (mode === 'user') request.auth = await authenticate(ctx, request);
  });
}

/** Owner and Admin see every record of their account; Agents and Lenders only what is tied to them. */
export function seesEveryone(auth: AuthUser): boolean {
  return auth.role === 'Owner' || auth.role === 'Admin';
}

/** Role gate: call at the top of a handler with the roles that may use it. */
export function requireRole(request: FastifyRequest, ...roles: UserRole[]): void {
  if (!roles.includes(request.auth.role)) {
    throw forbidden(`This action requires the ${roles.join(' or ')} role; your key belongs to a ${request.auth.role}`);
  }
}
