import type { FastifyRequest } from 'fastify';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { AppContext } from '../platform/context.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { authenticate } from '../accounts/auth/authenticate.js';
import { ApiError } from '../platform/http/errors.js';
import { bearerTokenFrom, liveAccessToken, tokenUser } from '../accounts/oauth/bearer.js';
import { mcpResourceUrl } from '../accounts/oauth/resources.js';

/** Who calls /mcp: the user, and the assistant (OAuth client) acting for them when a token is used. */
export interface McpCaller {
  auth: AuthUser;
  client: { id: number; name: string } | null;
  /** The Authorization header, passed on to the REST routes (their rate-limit bucket). */
  authorization: string;
}

/** RFC 9728 5.1: where an MCP client finds how to get a token for this resource. */
export const resourceMetadataUrl = (publicUrl: string) =>
  `${publicUrl}/.well-known/oauth-protected-resource/mcp`;

function challenge(ctx: AppContext, message: string, error?: string): ApiError {
  const metadata = `resource_metadata="${resourceMetadataUrl(ctx.config.publicUrl)}"`;
  const detail = error ? `, error="${error}", error_description="${message}"` : '';
  return new ApiError(401, 'UNAUTHORIZED', message, undefined, {
    'WWW-Authenticate': `Bearer ${metadata}${detail}`,
  });
}

/**
 * /mcp takes the credentials /v1 takes: an OAuth access token (for the REST API or bound to /mcp
 * by RFC 8707) or an API key in HTTP Basic. No session cookie: a web page must not drive it.
 */
export async function authenticateMcpCaller(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<McpCaller> {
  const authorization = request.headers.authorization;
  if (!authorization)
    throw challenge(ctx, 'Sign in: send an OAuth access token (Bearer) or an API key (Basic)');
  const token = bearerTokenFrom(request);
  if (token === undefined)
    return { auth: await authenticate(ctx, request), client: null, authorization };
  let row: Awaited<ReturnType<typeof liveAccessToken>>;
  try {
    row = await liveAccessToken(ctx, token);
  } catch (err) {
    throw err instanceof ApiError ? challenge(ctx, err.message, 'invalid_token') : err;
  }
  const resource = mcpResourceUrl(ctx.config.publicUrl);
  if (row.resource !== null && row.resource !== resource)
    throw challenge(ctx, `This access token is for ${row.resource}`, 'invalid_token');
  return {
    auth: tokenUser(row),
    client: { id: row.client_id, name: row.client_name },
    authorization,
  };
}

/** The caller of this request: /mcp authenticates every request and hands it over as authInfo. */
export function callerOf(authInfo: AuthInfo | undefined): McpCaller {
  const caller = authInfo?.extra?.caller as McpCaller | undefined;
  if (!caller) throw new Error('MCP request without an authenticated caller');
  return caller;
}

export function authInfoOf(caller: McpCaller): AuthInfo {
  return {
    token: '',
    clientId: caller.client ? String(caller.client.id) : 'api-key',
    scopes: [],
    extra: { caller },
  };
}
