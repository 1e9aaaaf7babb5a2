import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { AuthUser } from '../http/auth-user.js';
import { ApiError } from '../http/errors.js';
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

/** An OAuth access token acts for its user with exactly the access of that user's API key (role read now). */
export async function authenticateBearer(ctx: AppContext, token: string): Promise<AuthUser> {
  if (!token) throw invalidToken('The access token is missing');
  const found = await findLiveAccessToken(ctx.db, token, ctx.clock.now());
  if (found.status === 'expired') throw invalidToken('The access token has expired');
  if (found.status !== 'live')
    throw invalidToken(
      found.status === 'revoked'
        ? 'The access token has been revoked'
        : 'The access token is invalid',
    );
  const user = found.user;
  return {
    accountId: user.account_id,
    userId: user.id,
    role: user.role,
    name: user.name,
    email: user.email,
  };
}
