import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { secretMatches } from '../keys.js';
import { badRequest } from '../../platform/http/errors.js';

export interface SystemIdentity {
  /** The name the caller gave (X-System header, `system` query argument or `system` body key), or null. */
  name: string | null;
  /** True when X-System-Key matched the registered key of that system. A wrong key counts as no key. */
  verified: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    system: SystemIdentity;
  }
}

const MAX_SYSTEM_NAME = 100;

function claimedSystem(request: FastifyRequest): string | null {
  const header = request.headers['x-system'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined;
  const candidates = [
    fromHeader,
    query?.system,
    body && typeof body === 'object' ? body.system : undefined,
  ];
  for (const value of candidates) {
    if (typeof value === 'string' && value.trim() !== '')
      return value.trim().slice(0, MAX_SYSTEM_NAME);
  }
  return null;
}

/** Verified system keys, remembered briefly so that a busy integration costs one lookup a minute. */
const verifiedCache = new Map<string, number>();
const CACHE_MS = 60_000;

async function keyIsValid(ctx: AppContext, name: string, key: string): Promise<boolean> {
  const cacheKey = `${name}\u0000${key}`;
  const until = verifiedCache.get(cacheKey);
  if (until && until > Date.now()) return true;
  const row = await ctx.db
    .selectFrom('systems')
    .select('key_hash')
    .where('name', '=', name)
    .executeTakeFirst();
  const valid = row !== undefined && secretMatches(key, row.key_hash);
  if (valid) {
    if (verifiedCache.size > 10_000) verifiedCache.clear();
    verifiedCache.set(cacheKey, Date.now() + CACHE_MS);
  }
  return valid;
}

/** The caller's system; a promise only when a named system's key has to be checked. */
export function identifySystem(
  ctx: AppContext,
  request: FastifyRequest,
): SystemIdentity | Promise<SystemIdentity> {
  const name = claimedSystem(request);
  const keyHeader = request.headers['x-system-key'];
  const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
  if (!name || !key) return { name, verified: false };
  return keyIsValid(ctx, name, key).then((verified) => ({ name, verified }));
}

export function registerSystemIdentification(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('system', null as unknown as SystemIdentity);
  // preValidation runs after the body is parsed, so a `system` key in a JSON body counts too.
  app.addHook('preValidation', (request, _reply, done) => {
    const identity = identifySystem(ctx, request);
    if (!(identity instanceof Promise)) {
      request.system = identity;
      return done();
    }
    identity.then((found) => {
      request.system = found;
      done();
    }, done);
  });
}

/** For routes that only work for an identified system (all of /v1/webhooks). */
export function requireSystem(request: FastifyRequest): string {
  if (!request.system.name) {
    throw badRequest(
      'System identification is required: send the X-System header (or a `system` query argument or body key)',
    );
  }
  return request.system.name;
}
