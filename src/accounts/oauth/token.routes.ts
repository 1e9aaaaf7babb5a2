import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { ApiError } from '../../platform/http/errors.js';
import { isoSeconds } from '../../platform/time.js';
import { OAuthError } from './oauth.errors.js';
import type { IssuedTokens } from './oauth.repo.js';
import {
  LegacyTokenError,
  LegacyTokenResponse,
  TokenError,
  TokenParamsSchema,
  TokenResponse,
} from './oauth.schemas.js';
import { exchangeToken, readParams } from './token.service.js';

const tags = ['oauth'];

/** Anything that went wrong before the handler (parsing, validation) is a malformed token request. */
function asOAuthError(error: FastifyError | Error, request: FastifyRequest): OAuthError {
  if (error instanceof OAuthError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const first = fastifyError.validation[0];
    const name =
      String(first?.instancePath ?? '').replace(/^\//, '') ||
      String(first?.params?.missingProperty ?? 'request');
    return new OAuthError(
      'invalid_request',
      `Invalid parameter '${name}': ${first?.message ?? 'invalid value'} (each parameter must be sent once, as a string)`,
    );
  }
  if (error instanceof ApiError && error.status < 500)
    return new OAuthError('invalid_request', error.message);
  const status = (error as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new OAuthError('invalid_request', error.message);
  request.log.error({ err: error, reqId: request.id }, 'token endpoint error');
  return new OAuthError(
    'server_error',
    `Internal error; quote request id ${request.id} when reporting it`,
  );
}

function noStore(reply: FastifyReply): void {
  reply.header('Cache-Control', 'no-store');
  reply.header('Pragma', 'no-cache');
}

function deprecated(reply: FastifyReply): void {
  reply.header('Deprecation', 'true');
  reply.header('Link', '</oauth/token>; rel="successor-version"');
}

function challenge(reply: FastifyReply, error: OAuthError): void {
  if (error.status === 401 && error.details.basicChallenge)
    reply.header('WWW-Authenticate', 'Basic realm="Hearth OAuth", charset="UTF-8"');
}

function sendTokenError(error: Error, request: FastifyRequest, reply: FastifyReply) {
  const oauthError = asOAuthError(error, request);
  noStore(reply);
  challenge(reply, oauthError);
  return reply
    .code(oauthError.status)
    .send({ error: oauthError.error, error_description: oauthError.description });
}

function sendLegacyError(error: Error, request: FastifyRequest, reply: FastifyReply) {
  const oauthError = asOAuthError(error, request);
  deprecated(reply);
  noStore(reply);
  challenge(reply, oauthError);
  return reply.code(oauthError.status).send({
    success: false,
    errorMessage: oauthError.description,
    ...(oauthError.details.missing ? { errorDetails: oauthError.details.missing } : {}),
    errorCode: oauthError.error,
  });
}

export function presentTokens(tokens: IssuedTokens) {
  return {
    access_token: tokens.accessToken,
    token_type: 'Bearer' as const,
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
  };
}

/** The deprecated GET form's answer: every value a string, dates as Y-m-d\TH:i:s\Z. */
export function presentLegacyTokens(tokens: IssuedTokens) {
  return {
    success: true as const,
    data: {
      access_token: tokens.accessToken,
      token_type: 'bearer' as const,
      refresh_token: tokens.refreshToken,
      ttl: String(tokens.expiresIn),
      issued_at: isoSeconds(tokens.issuedAt),
      expires_at: isoSeconds(tokens.issuedAt + tokens.expiresIn * 1000),
    },
  };
}

/** POST /oauth/token (RFC 6749 section 4.1.3 and 6) and its deprecated GET form. */
export const tokenRoutes: RoutePlugin = async (app, { ctx }) => {
  app.post(
    '/oauth/token',
    {
      config: { auth: 'none' },
      errorHandler: sendTokenError,
      // An empty body is a request without parameters (answered "missing grant_type"), not a malformed one.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        tags,
        summary: 'Exchange an authorization code or a refresh token for tokens',
        description:
          'Form-encoded (or JSON) parameters. Client credentials in HTTP Basic (client_id:client_secret) or as client_id/client_secret; ' +
          'public clients send client_id and the PKCE code_verifier. Refresh tokens rotate: each works once.',
        security: [],
        body: TokenParamsSchema,
        response: { 200: TokenResponse, 400: TokenError, 401: TokenError, 500: TokenError },
      },
    },
    async (request, reply) => {
      const tokens = await exchangeToken(
        ctx,
        readParams(request.body as Record<string, unknown> | undefined),
        request.headers.authorization,
      );
      noStore(reply);
      return presentTokens(tokens);
    },
  );

  app.get(
    '/oauth/token',
    {
      config: { auth: 'none' },
      errorHandler: sendLegacyError,
      schema: {
        tags,
        summary: 'Deprecated: the token exchange with query parameters and the legacy answer',
        description:
          'Kept for existing integrations; new ones use POST /oauth/token. Same parameters as POST, in the query.',
        deprecated: true,
        security: [],
        querystring: TokenParamsSchema,
        response: {
          200: LegacyTokenResponse,
          400: LegacyTokenError,
          401: LegacyTokenError,
          500: LegacyTokenError,
        },
      },
    },
    async (request, reply) => {
      deprecated(reply);
      const tokens = await exchangeToken(
        ctx,
        readParams(request.query as Record<string, unknown>),
        request.headers.authorization,
      );
      noStore(reply);
      return presentLegacyTokens(tokens);
    },
  );
};
