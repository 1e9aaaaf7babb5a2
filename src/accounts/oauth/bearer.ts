import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { ApiError } from '../../platform/http/errors.js';
import { findLiveAccessToken } from './oauth.repo.js';

/** The token of `Authorization: Bearer <token>` (RFC 6750 2.1); undefined when another scheme (or none) is used. */
export function bearerTokenFrom(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}

const invalidToken = (description: string) =>
  new ApiError(401, 'INVALID_TOKEN', description, undefined, {
    'WWW-Authenticate': `Bearer realm="Hearth", error="invalid_token", error_description="${description}"`,
  });

/** The live token's row (user, client, resource), or the 401 that says why it is not live. */
export async function liveAccessToken(ctx: AppContext, token: string) {
  if (!token) throw invalidToken('The access token is missing');
  const found = await findLiveAccessToken(ctx.db, token, ctx.clock.now());
  if (found.status === 'expired') throw invalidToken('The access token has expired');
  if (found.status !== 'live')
    throw invalidToken(
      found.status === 'revoked'
        ? 'The access token has been revoked'
        : 'The access token is invalid',
    );
  return found.user;
}

export function tokenUser(row: Awaited<ReturnType<typeof liveAccessToken>>): AuthUser {
  return {
    accountId: row.account_id,
    userId: row.id,
    role: row.role,
    name: row.name,
    email: row.email,
    // The grant (authorization code) the token descends from: refreshing keeps the credential.
    credential: `${row.id}:oauth:${row.code_id}`,
  };
}

/**
 * An OAuth access token acts for its user with exactly the access of that user's API key (role
 * read now). A token bound to another resource (RFC 8707: the MCP endpoint) is not for /v1.
 */
export async function authenticateBearer(ctx: AppContext, token: string): Promise<AuthUser> {
  const row = await liveAccessToken(ctx, token);
  if (row.resource !== null)
    throw invalidToken(`This access token is for ${row.resource}, not for the REST API`);
  return tokenUser(row);
}
