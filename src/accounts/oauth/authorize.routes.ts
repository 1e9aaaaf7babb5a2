import type { FastifyReply, FastifyRequest, FastifyError } from 'fastify';
import type { RouteOptions, RoutePlugin } from '../../platform/http/route-types.js';
import { findAccount } from '../accounts.repo.js';
import { ApiError } from '../../platform/http/errors.js';
import { type OAuthClient } from './clients.js';
import {
  type AuthorizingClient,
  claimRegistration,
  findAuthorizingClient,
  type PendingClient,
} from './registrations.js';
import { knownResources } from './resources.js';
import { insertCode } from './oauth.repo.js';
import { AuthorizeError, AuthorizeQuery } from './oauth.schemas.js';
import {
  type AuthorizeParams,
  FORWARDED_PARAMS,
  plain,
  redirectTarget,
  REPEATED,
  requestProblem,
  resolveRedirectUri,
  single,
} from './authorize.request.js';
import { consentPage, errorPage, returnPage } from './consent.page.js';
import { csrfTokenFor, csrfTokenMatches, findSession, sessionIdFrom } from '../auth/sessions.js';

export { redirectTarget } from './authorize.request.js';

const tags = ['oauth'];

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** The answer when no redirect is possible or allowed: an HTML page for browsers, JSON otherwise. */
function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
) {
  reply.code(status).header('Cache-Control', 'no-store');
  if (!wantsHtml(request)) return reply.send({ error, error_description: description });
  return reply
    .type('text/html; charset=utf-8')
    .send(errorPage('Authorization failed', description, error));
}

/** What fails outside the handlers (a malformed or oversized form body) in OAuth's error shape. */
function authorizeErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error instanceof ApiError ? error.status : error.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return refuse(request, reply, status, 'invalid_request', error.message);
  request.log.error({ err: error, reqId: request.id }, 'authorize endpoint error');
  const message = `Internal error; quote request id ${request.id} when reporting it`;
  return refuse(request, reply, 500, 'server_error', message);
}

/** The sign-in page, coming back to this same authorization request afterwards. */
function toSignIn(reply: FastifyReply, params: AuthorizeParams) {
  const query = new URLSearchParams();
  for (const name of FORWARDED_PARAMS) {
    const value = plain(params, name);
    if (value !== undefined) query.set(name, value);
  }
  const next = `/oauth/authorize?${query}`;
  return reply
    .header('Cache-Control', 'no-store')
    .redirect(`/login?next=${encodeURIComponent(next)}`, 302);
}

type Checked =
  | { done: FastifyReply }
  | {
      client: AuthorizingClient;
      redirectUri: string;
      back: (p: Record<string, string>) => string;
    };

/** Client, redirect URI and request checks shared by GET (show consent) and POST (decide). */
async function checkRequest(
  ctx: RouteOptions['ctx'],
  request: FastifyRequest,
  reply: FastifyReply,
  params: AuthorizeParams,
): Promise<Checked> {
  const clientId = single(params.client_id);
  if (clientId === undefined || clientId === REPEATED) {
    const problem = clientId ? 'client_id must be sent once' : 'client_id is required';
    return { done: refuse(request, reply, 400, 'invalid_request', problem) };
  }
  const client = await findAuthorizingClient(ctx.db, clientId);
  if (!client) return { done: refuse(request, reply, 400, 'invalid_client', 'Unknown client_id') };
  const redirect = resolveRedirectUri(client, single(params.redirect_uri));
  if ('problem' in redirect)
    return { done: refuse(request, reply, 400, 'invalid_request', redirect.problem) };
  const rawState = single(params.state);
  const state = rawState === REPEATED ? undefined : rawState;
  const back = (result: Record<string, string>) =>
    redirectTarget(redirect.uri, { ...result, state });
  const problem = requestProblem(
    params,
    client,
    knownResources(ctx.config.publicUrl),
    request.validationError?.message,
  );
  if (problem) {
    const target = back({ error: problem.error, error_description: problem.description });
    return { done: reply.header('Cache-Control', 'no-store').redirect(target, 302) };
  }
  return { client, redirectUri: redirect.uri, back };
}

async function signedInUser(ctx: RouteOptions['ctx'], request: FastifyRequest) {
  const sessionId = sessionIdFrom(request);
  const user = sessionId ? await findSession(ctx.db, sessionId, ctx.clock.now()) : null;
  return user && sessionId ? { user, sessionId } : null;
}

/** The single-use code of an allowed request, bound to its client, user, redirect URI, PKCE and scope. */
function issueCode(
  ctx: RouteOptions['ctx'],
  allowed: { client: OAuthClient; userId: number; redirectUri: string },
  params: AuthorizeParams,
): Promise<string> {
  const { client } = allowed;
  return insertCode(
    ctx.db,
    {
      accountId: client.accountId,
      clientId: client.id,
      userId: allowed.userId,
      redirectUri: allowed.redirectUri,
      redirectUriGiven: plain(params, 'redirect_uri') !== undefined,
      codeChallenge: plain(params, 'code_challenge') ?? null,
      scope: plain(params, 'scope') ?? '',
      resource: plain(params, 'resource') ?? null,
    },
    ctx.clock.now(),
  );
}

/**
 * The client as one of the account's: a pending registration is claimed by its first consent
 * (RFC 7591 clients register before anyone signs in). Undefined when it belongs to another account.
 */
async function clientOfAccount(
  ctx: RouteOptions['ctx'],
  client: AuthorizingClient,
  accountId: number,
): Promise<OAuthClient | undefined> {
  const claimed =
    client.accountId === null
      ? await ctx.db
          .transaction()
          .execute((trx) =>
            claimRegistration(trx, client as PendingClient, accountId, ctx.clock.now()),
          )
      : client;
  return claimed?.accountId === accountId ? claimed : undefined;
}

/**
 * /oauth/authorize (RFC 6749 4.1.1): the signed-in user sees who asks for what and answers Allow or
 * Deny in a form POST carrying the session's CSRF token; the client gets a 10-minute single-use
 * code (or access_denied) on its registered redirect URI. Without a session: the sign-in page first.
 */
export const authorizeRoutes: RoutePlugin = async (app, { ctx }) => {
  const html = (reply: FastifyReply, page: string) =>
    reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(page);

  app.get(
    '/oauth/authorize',
    {
      config: { auth: 'none' },
      errorHandler: authorizeErrorHandler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Authorize a client: sign-in, then a consent page with Allow and Deny',
        description:
          'Invalid client_id or unregistered redirect_uri: 400, never a redirect. No session: 302 to /login?next=…. ' +
          'Other problems: 302 to redirect_uri with error and state. Signed in: 200 consent page (HTML).',
        security: [],
        querystring: AuthorizeQuery,
        response: {
          200: { description: 'the consent page (HTML)', type: 'string' },
          302: { description: 'redirect to sign-in or to the client', type: 'null' },
          400: AuthorizeError,
          500: AuthorizeError,
        },
      },
    },
    async (request, reply) => {
      const params = request.query as AuthorizeParams;
      const checked = await checkRequest(ctx, request, reply, params);
      if ('done' in checked) return checked.done;
      const signedIn = await signedInUser(ctx, request);
      if (!signedIn) return toSignIn(reply, params);
      const { client, back } = checked;
      if (client.accountId !== null && signedIn.user.accountId !== client.accountId)
        return reply.header('Cache-Control', 'no-store').redirect(
          back({
            error: 'access_denied',
            error_description: 'This client is registered for another Hearth account',
          }),
          302,
        );
      const account = (await findAccount(ctx.db, signedIn.user.accountId))!;
      return html(
        reply,
        consentPage({
          client,
          user: signedIn.user,
          accountName: account.name,
          params,
          csrfToken: csrfTokenFor(signedIn.sessionId),
          assistant:
            client.dynamic || plain(params, 'resource') !== undefined
              ? { redirectUri: checked.redirectUri }
              : null,
        }),
      );
    },
  );

  app.post(
    '/oauth/authorize',
    {
      config: { auth: 'none' },
      errorHandler: authorizeErrorHandler,
      schema: {
        tags,
        summary: 'The consent form: decision=allow|deny with csrf_token and the request parameters',
        security: [],
        response: {
          200: { description: 'a page that returns the browser to the client', type: 'string' },
          302: { description: 'redirect to sign-in or to the client', type: 'null' },
          400: AuthorizeError,
          403: AuthorizeError,
        },
      },
    },
    async (request, reply) => {
      const params = (request.body ?? {}) as AuthorizeParams;
      const checked = await checkRequest(ctx, request, reply, params);
      if ('done' in checked) return checked.done;
      const signedIn = await signedInUser(ctx, request);
      if (!signedIn) return toSignIn(reply, params);
      const { back } = checked;
      const csrfToken = single(params.csrf_token);
      const foreign =
        checked.client.accountId !== null && checked.client.accountId !== signedIn.user.accountId;
      if (foreign || csrfToken === REPEATED || !csrfTokenMatches(signedIn.sessionId, csrfToken))
        return refuse(
          request,
          reply,
          403,
          'access_denied',
          'This consent form is not valid for your session; open the application’s link again',
        );
      if (plain(params, 'decision') !== 'allow')
        return html(
          reply,
          returnPage(
            checked.client.name,
            back({ error: 'access_denied', error_description: 'The user denied the request' }),
          ),
        );
      const client = await clientOfAccount(ctx, checked.client, signedIn.user.accountId);
      if (!client)
        return refuse(
          request,
          reply,
          403,
          'access_denied',
          'Another Hearth account has just registered this assistant; connect it again',
        );
      const allowed = { client, userId: signedIn.user.userId, redirectUri: checked.redirectUri };
      const code = await issueCode(ctx, allowed, params);
      return html(reply, returnPage(client.name, back({ code })));
    },
  );
};
