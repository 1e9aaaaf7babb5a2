import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { apiKeyFrom, authenticate, type AuthUser } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { findClient, type OAuthClient } from './clients.js';
import { insertCode } from './oauth.repo.js';
import { AuthorizeError, AuthorizeQuery } from './oauth.schemas.js';
import { isValidPkceValue } from './pkce.js';

const tags = ['oauth'];
const RESPONSE_TYPES = new Set(['code', 'auth_code']);

const REPEATED = Symbol('repeated');

/** A parameter sent once with a value; repeated parameters are refused (RFC 6749 3.1). */
function single(value: unknown): string | undefined | typeof REPEATED {
  if (Array.isArray(value)) return value.length > 1 ? REPEATED : single(value[0]);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** The answer when no redirect is possible or allowed: an HTML page for browsers, JSON otherwise. */
function page(request: FastifyRequest, reply: FastifyReply, status: number, error: string, description: string, title = 'Authorization failed') {
  reply.code(status).header('Cache-Control', 'no-store');
  if (!wantsHtml(request)) return reply.send({ error, error_description: description });
  return reply
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', "default-src 'none'")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hearth: ${escapeHtml(title)}</title></head>` +
        `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(description)}</p><p><code>${escapeHtml(error)}</code></p></body></html>`,
    );
}

/** Adds the result to the client's redirect URI, keeping the query it was registered with. */
export function redirectTarget(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}

function resolveRedirectUri(client: OAuthClient, given: string | undefined | typeof REPEATED): { uri: string } | { problem: string } {
  if (given === REPEATED) return { problem: 'redirect_uri must be sent once' };
  if (given === undefined) {
    return client.redirectUris.length === 1
      ? { uri: client.redirectUris[0] }
      : { problem: 'redirect_uri is required: this client registered several redirect URIs' };
  }
  return client.redirectUris.includes(given) ? { uri: given } : { problem: 'redirect_uri is not registered for this client' };
}

/** The request checks that are reported to the client by redirect (RFC 6749 4.1.2.1); null when all pass. */
function requestProblem(request: FastifyRequest, client: OAuthClient): { error: string; description: string } | null {
  const q = request.query as Record<string, unknown>;
  const invalid = (description: string) => ({ error: 'invalid_request', description });
  if (request.validationError) return invalid(`Invalid parameters: ${request.validationError.message}`);
  for (const name of ['response_type', 'state', 'code_challenge', 'code_challenge_method', 'scope']) {
    if (single(q[name]) === REPEATED) return invalid(`${name} must be sent once`);
  }
  // Repeated values were refused above, so these are plain strings or undefined.
  const responseType = single(q.response_type) as string | undefined;
  if (responseType === undefined) return invalid('response_type is required (code)');
  if (!RESPONSE_TYPES.has(responseType)) return { error: 'unsupported_response_type', description: `response_type '${responseType}' is not supported; use code` };
  const challenge = single(q.code_challenge) as string | undefined;
  const method = single(q.code_challenge_method) as string | undefined;
  if (method !== undefined && method !== 'S256') return invalid('code_challenge_method must be S256 (plain is not supported)');
  if (challenge !== undefined) {
    if (method === undefined) return invalid('code_challenge_method=S256 is required with code_challenge (plain is not supported)');
    if (!isValidPkceValue(challenge)) return invalid('code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  } else if (method !== undefined) {
    return invalid('code_challenge_method was sent without code_challenge');
  }
  if (client.isPublic && challenge === undefined) return invalid('This is a public client: PKCE is required (code_challenge and code_challenge_method=S256)');
  return null;
}

/** The user consents by presenting their API key with HTTP Basic; null when they have not (yet). */
async function consentingUser(request: FastifyRequest, ctx: RouteOptions['ctx']): Promise<AuthUser | null> {
  if (!apiKeyFrom(request)) return null;
  try {
    return await authenticate(ctx, request);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/**
 * GET /oauth/authorize (RFC 6749 4.1.1). A self-hosted server has no login pages: the user consents
 * by authenticating with their API key (HTTP Basic, the browser asks for it), and the client gets a
 * 10-minute single-use code on its registered redirect URI.
 */
export const authorizeRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;

  app.get('/oauth/authorize', {
    config: { auth: 'none' },
    attachValidation: true,
    schema: {
      tags,
      summary: 'Authorize a client: the user signs in with their API key (HTTP Basic) and is redirected with a code',
      description:
        'Invalid client_id or unregistered redirect_uri: 400, never a redirect. No or wrong API key: 401 with a Basic challenge. ' +
        'Other problems: 302 to redirect_uri with error and state. Success: 302 to redirect_uri?code=…&state=….',
      // The user's API key over HTTP Basic is the consent; an access token cannot authorize further clients.
      security: [{ apiKey: [] }],
      querystring: AuthorizeQuery,
      response: { 302: { description: 'redirect to the client', type: 'null' }, 400: AuthorizeError, 401: AuthorizeError, 500: AuthorizeError },
    },
  }, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const clientId = single(q.client_id);
    if (clientId === undefined || clientId === REPEATED) {
      return page(request, reply, 400, 'invalid_request', clientId ? 'client_id must be sent once' : 'client_id is required');
    }
    const client = await findClient(ctx.db, clientId);
    if (!client) return page(request, reply, 400, 'invalid_client', 'Unknown client_id');
    const redirect = resolveRedirectUri(client, single(q.redirect_uri));
    if ('problem' in redirect) return page(request, reply, 400, 'invalid_request', redirect.problem);

    const rawState = single(q.state);
    const state = rawState === REPEATED ? undefined : rawState;
    const back = (params: Record<string, string>) =>
      reply.header('Cache-Control', 'no-store').redirect(redirectTarget(redirect.uri, { ...params, state }), 302);

    const problem = requestProblem(request, client);
    if (problem) return back({ error: problem.error, error_description: problem.description });

    const user = await consentingUser(request, ctx);
    if (!user) {
      reply.header('WWW-Authenticate', 'Basic realm="Hearth", charset="UTF-8"');
      const description = apiKeyFrom(request)
        ? 'That API key is not valid. Sign in again with your Hearth API key as the user name (leave the password empty).'
        : `${client.name} asks to use your Hearth account. Sign in with your Hearth API key as the user name (leave the password empty) to allow it.`;
      return page(request, reply, 401, 'login_required', description, `Authorize ${client.name}`);
    }
    if (user.accountId !== client.accountId) {
      return back({ error: 'access_denied', error_description: 'This client is registered for another Hearth account' });
    }
    const code = await insertCode(ctx.db, {
      accountId: client.accountId,
      clientId: client.id,
      userId: user.userId,
      redirectUri: redirect.uri,
      redirectUriGiven: single(q.redirect_uri) !== undefined,
      codeChallenge: (single(q.code_challenge) as string | undefined) ?? null,
      scope: (single(q.scope) as string | undefined) ?? '',
    }, ctx.clock.now());
    return back({ code });
  });
};
