import { Type } from '@sinclair/typebox';

const param = (description: string, maxLength = 2048) =>
  Type.Optional(Type.String({ description, maxLength }));

/**
 * Token request parameters. Unknown parameters are ignored, as RFC 6749 3.2 requires of a token
 * endpoint (clients add e.g. `resource` or `audience`), so these objects allow other properties.
 */
export const TokenParamsSchema = Type.Object(
  {
    grant_type: param('authorization_code or refresh_token'),
    code: param('authorization_code grant: the code from /oauth/authorize'),
    redirect_uri: param(
      'authorization_code grant: the redirect_uri of the authorization request, when it named one',
    ),
    code_verifier: param(
      'authorization_code grant: the PKCE verifier (required when the authorization carried code_challenge)',
    ),
    refresh_token: param(
      'refresh_token grant: the refresh token (it is rotated: use the new one from the answer)',
    ),
    client_id: param('the client, unless authenticated with HTTP Basic', 200),
    client_secret: param('confidential clients, unless authenticated with HTTP Basic', 200),
    scope: param('accepted and ignored: a token carries the access of its user\u2019s role'),
    resource: param(
      'RFC 8707: the resource of the authorization request (the /mcp URL), when it named one',
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds the access token is valid' }),
  refresh_token: Type.String(),
});

export const TokenError = Type.Object(
  {
    error: Type.String({
      description:
        'invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type or server_error',
    }),
    error_description: Type.String(),
  },
  { description: 'RFC 6749 5.2 error' },
);

export const LegacyTokenResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    access_token: Type.String(),
    token_type: Type.Literal('bearer'),
    refresh_token: Type.String(),
    ttl: Type.String({ description: 'seconds, as a string' }),
    issued_at: Type.String({ description: 'Y-m-d\\TH:i:s\\Z' }),
    expires_at: Type.String({ description: 'Y-m-d\\TH:i:s\\Z' }),
  }),
});

export const LegacyTokenError = Type.Object({
  success: Type.Literal(false),
  errorMessage: Type.String(),
  errorDetails: Type.Optional(Type.Array(Type.String(), { description: 'the missing parameters' })),
  errorCode: Type.String({ description: 'the RFC 6749 error code' }),
});

export const AuthorizeQuery = Type.Object(
  {
    response_type: param('code (auth_code is accepted too)', 50),
    client_id: param('the registered client', 200),
    redirect_uri: param(
      'one of the client\u2019s registered redirect URIs (optional when it registered exactly one)',
    ),
    state: param('opaque value echoed back on the redirect'),
    code_challenge: param(
      'PKCE S256 challenge: BASE64URL(SHA256(code_verifier)); required for public clients',
      128,
    ),
    code_challenge_method: param('S256 (plain is not supported)', 10),
    scope: param('accepted and ignored: a token carries the access of its user\u2019s role'),
    resource: param(
      'RFC 8707: the /mcp URL binds the token to the MCP endpoint (AI assistants); omit it for the REST API',
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** Shown when /oauth/authorize cannot redirect (bad client or redirect URI) or needs the user's API key. */
export const AuthorizeError = Type.Object({
  error: Type.String(),
  error_description: Type.String(),
});
