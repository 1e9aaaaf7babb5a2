import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { ApiResponse, TestServer } from './helpers.js';
import { createOAuthClient } from '../src/oauth/clients.js';

export const REDIRECT = 'https://app.example.com/oauth/callback';
export const OTHER_REDIRECT = 'https://app.example.com/other';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function clientBasic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export async function newClient(server: TestServer, accountId: number, options: { isPublic?: boolean; redirectUris?: string[] } = {}) {
  return createOAuthClient(server.ctx.db, {
    accountId,
    name: 'Listing App',
    redirectUris: options.redirectUris ?? [REDIRECT],
    isPublic: options.isPublic ?? false,
  });
}

export function authorize(server: TestServer, params: Record<string, string>, key?: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return server.call('GET', `/oauth/authorize?${new URLSearchParams(params)}`, { key, headers });
}

/** The query of the 302 Location, after checking it goes to `redirect`. */
export function redirectedTo(res: ApiResponse, redirect = REDIRECT): URLSearchParams {
  assert.equal(res.status, 302, res.text);
  const location = new URL(String(res.headers.location));
  assert.equal(`${location.origin}${location.pathname}`, redirect);
  return location.searchParams;
}

/** POST /oauth/token, form-encoded like OAuth clients do. */
export function token(server: TestServer, params: Record<string, string>, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return server.call('POST', '/oauth/token', {
    raw: new URLSearchParams(params).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers,
  });
}

export function legacyToken(server: TestServer, params: Record<string, string>, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return server.call('GET', `/oauth/token?${new URLSearchParams(params)}`, { headers });
}

export function bearer(server: TestServer, accessToken: string, path: string): Promise<ApiResponse> {
  return server.call('GET', path, { headers: { authorization: `Bearer ${accessToken}` } });
}

export function assertTokenError(res: ApiResponse, status: number, error: string, description?: RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.error, error, res.text);
  assert.equal(typeof res.body.error_description, 'string');
  assert.deepEqual(Object.keys(res.body).sort(), ['error', 'error_description']);
  assert.equal(res.headers['cache-control'], 'no-store');
  if (description) assert.match(res.body.error_description, description);
}

/** Runs the whole code flow for a user and returns the token response body. */
export async function codeFlow(
  server: TestServer,
  client: { clientId: string; clientSecret?: string },
  userKey: string,
): Promise<{ access_token: string; refresh_token: string; code: string }> {
  const { verifier, challenge } = pkce();
  const query = redirectedTo(
    await authorize(server, { response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 's', code_challenge: challenge, code_challenge_method: 'S256' }, userKey),
  );
  const code = query.get('code')!;
  const params: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId, code_verifier: verifier };
  if (client.clientSecret) params.client_secret = client.clientSecret;
  const res = await token(server, params);
  assert.equal(res.status, 200, res.text);
  return { ...res.body, code };
}
