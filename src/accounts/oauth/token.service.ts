import type { AppContext } from '../../platform/context.js';
import { authenticateClient, presentedClient } from './clientAuth.js';
import { authorizationCodeGrant } from './grants/authorizationCode.js';
import { refreshTokenGrant } from './grants/refreshToken.js';
import { invalidRequest, OAuthError } from './oauth.errors.js';
import type { IssuedTokens } from './oauth.repo.js';

/** The parameters of a token request, from a form or JSON body (POST) or the query (deprecated GET). */
export interface TokenParams {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  client_id?: string;
  client_secret?: string;
  scope?: string;
  /** RFC 8707: when given, it must be the resource the authorization was for. */
  resource?: string;
}

const PARAM_NAMES = [
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'refresh_token',
  'client_id',
  'client_secret',
  'scope',
  'resource',
] as const;

/** Grants defined by RFC 6749 that Hearth knows but lets no client use: every Hearth token acts for a user who consented. */
const DISABLED_GRANTS = new Set(['password', 'client_credentials']);

const REQUIRED: Record<string, (keyof TokenParams)[]> = {
  authorization_code: ['code'],
  refresh_token: ['refresh_token'],
};

/** RFC 6749 3.1/3.2: a parameter sent without a value is treated as omitted. */
export function readParams(source: Record<string, unknown> | undefined | null): TokenParams {
  const params: TokenParams = {};
  if (!source || typeof source !== 'object') return params;
  for (const name of PARAM_NAMES) {
    const value = source[name];
    if (typeof value === 'string' && value !== '') params[name] = value;
  }
  return params;
}

/** Validates the request, authenticates the client and runs the grant. Throws OAuthError. */
export async function exchangeToken(
  ctx: AppContext,
  params: TokenParams,
  authorization: string | undefined,
): Promise<IssuedTokens> {
  const grantType = params.grant_type;
  if (!grantType)
    throw invalidRequest('Missing parameter: grant_type (authorization_code or refresh_token)', [
      'grant_type',
    ]);
  const required = REQUIRED[grantType];
  if (!required && !DISABLED_GRANTS.has(grantType)) {
    throw new OAuthError(
      'unsupported_grant_type',
      `Unsupported grant_type '${grantType}'; use authorization_code or refresh_token`,
    );
  }
  const missing = (required ?? []).filter((name) => params[name] === undefined);
  if (missing.length > 0)
    throw invalidRequest(
      `Missing parameter${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
      missing,
    );

  const client = await authenticateClient(ctx.db, presentedClient(authorization, params));
  if (!required) {
    throw new OAuthError(
      'unauthorized_client',
      `This client may not use the ${grantType} grant; Hearth clients use authorization_code and refresh_token`,
    );
  }
  if (grantType === 'authorization_code') {
    return authorizationCodeGrant(ctx, client, {
      code: params.code!,
      redirectUri: params.redirect_uri,
      codeVerifier: params.code_verifier,
      resource: params.resource,
    });
  }
  return refreshTokenGrant(ctx, client, params.refresh_token!, params.resource);
}
