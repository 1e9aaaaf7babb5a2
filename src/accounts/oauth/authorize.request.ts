import type { OAuthClient } from './clients.js';
import { isValidPkceValue } from './pkce.js';

/** The parameters of an authorization request, from the GET query or the consent form's POST. */
export type AuthorizeParams = Record<string, unknown>;

const RESPONSE_TYPES = new Set(['code', 'auth_code']);
/** What the consent form carries from the GET to the POST. */
export const FORWARDED_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'scope',
  'resource',
] as const;

export const REPEATED = Symbol('repeated');

/** A parameter sent once with a value; repeated parameters are refused (RFC 6749 3.1). */
export function single(value: unknown): string | undefined | typeof REPEATED {
  if (Array.isArray(value)) return value.length > 1 ? REPEATED : single(value[0]);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A parameter known not to be repeated (checked by requestProblem). */
export const plain = (params: AuthorizeParams, name: string) =>
  single(params[name]) as string | undefined;

/** Adds the result to the client's redirect URI, keeping the query it was registered with. */
export function redirectTarget(
  redirectUri: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}

type ClientRules = Pick<OAuthClient, 'redirectUris' | 'isPublic'>;

export function resolveRedirectUri(
  client: ClientRules,
  given: string | undefined | typeof REPEATED,
): { uri: string } | { problem: string } {
  if (given === REPEATED) return { problem: 'redirect_uri must be sent once' };
  if (given === undefined) {
    return client.redirectUris.length === 1
      ? { uri: client.redirectUris[0] }
      : { problem: 'redirect_uri is required: this client registered several redirect URIs' };
  }
  return client.redirectUris.includes(given)
    ? { uri: given }
    : { problem: 'redirect_uri is not registered for this client' };
}

function pkceProblem(params: AuthorizeParams, client: ClientRules): string | null {
  const challenge = plain(params, 'code_challenge');
  const method = plain(params, 'code_challenge_method');
  if (method !== undefined && method !== 'S256')
    return 'code_challenge_method must be S256 (plain is not supported)';
  if (challenge !== undefined) {
    if (method === undefined)
      return 'code_challenge_method=S256 is required with code_challenge (plain is not supported)';
    if (!isValidPkceValue(challenge))
      return 'code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~';
  } else if (method !== undefined) {
    return 'code_challenge_method was sent without code_challenge';
  }
  if (client.isPublic && challenge === undefined)
    return 'This is a public client: PKCE is required (code_challenge and code_challenge_method=S256)';
  return null;
}

/** The request checks reported to the client by redirect (RFC 6749 4.1.2.1); null when all pass. */
export function requestProblem(
  params: AuthorizeParams,
  client: ClientRules,
  resources: readonly string[],
  validationMessage?: string,
): { error: string; description: string } | null {
  const invalid = (description: string) => ({ error: 'invalid_request', description });
  if (validationMessage) return invalid(`Invalid parameters: ${validationMessage}`);
  for (const name of FORWARDED_PARAMS.slice(3)) {
    if (single(params[name]) === REPEATED) return invalid(`${name} must be sent once`);
  }
  if (single(params.response_type) === REPEATED) return invalid('response_type must be sent once');
  const responseType = plain(params, 'response_type');
  if (responseType === undefined) return invalid('response_type is required (code)');
  if (!RESPONSE_TYPES.has(responseType))
    return {
      error: 'unsupported_response_type',
      description: `response_type '${responseType}' is not supported; use code`,
    };
  const pkce = pkceProblem(params, client);
  if (pkce) return invalid(pkce);
  const resource = plain(params, 'resource');
  if (resource !== undefined && !resources.includes(resource))
    return {
      error: 'invalid_target',
      description: `resource must be ${resources.join(' or ')} (RFC 8707)`,
    };
  return null;
}
