import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { ApiResponse, TestServer } from '../support/server.js';
import { createOAuthClient } from '../../src/accounts/oauth/clients.js';
import { setPassword } from '../../src/accounts/auth/auth.service.js';

export const REDIRECT = 'https://app.example.com/oauth/callback';
export const OTHER_REDIRECT = 'https://app.example.com/other';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function clientBasic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export async function newClient(
  server: TestServer,
  accountId: number,
  options: { isPublic?: boolean; redirectUris?: string[] } = {},
) {
  return createOAuthClient(server.ctx.db, {
    accountId,
    name: 'Listing App',
    redirectUris: options.redirectUris ?? [REDIRECT],
    isPublic: options.isPublic ?? false,
  });
}

const CONSENT_PASSWORD = 'consent-test-passphrase-9';
const signedInCookies = new WeakMap<TestServer, Map<number, string>>();

/** A session cookie of the user whose API key this is (the key itself never reaches the page). */
export async function sessionCookieForKey(server: TestServer, key: string): Promise<string | null> {
  const me = await server.get(key, '/v1/me');
  if (me.status !== 200) return null;
  let cookies = signedInCookies.get(server);
  if (!cookies) signedInCookies.set(server, (cookies = new Map()));
  const known = cookies.get(me.body.id);
  if (known) return known;
  await setPassword(server.ctx.db, me.body.id, CONSENT_PASSWORD);
  const res = await server.call('POST', '/auth/login', {
    body: { email: me.body.email, password: CONSENT_PASSWORD },
  });
  assert.equal(res.status, 200, res.text);
  const cookie = String(res.headers['set-cookie']).split(';', 1)[0]!;
  cookies.set(me.body.id, cookie);
  return cookie;
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields of the consent page's form. */
export function consentFormFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[match[1]!] = unescapeHtml(match[2]!);
  return fields;
}

export function postConsent(
  server: TestServer,
  fields: Record<string, string>,
  cookie: string | null,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return server.call('POST', '/oauth/authorize', {
    raw: new URLSearchParams(fields).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
  });
}

/**
 * GET /oauth/authorize; with a user's key, as that user signed in to the browser who then presses
 * Allow (or `decision`): the answer is then the page that returns to the client.
 */
export async function authorize(
  server: TestServer,
  params: Record<string, string>,
  key?: string,
  headers: Record<string, string> = {},
  decision: 'allow' | 'deny' = 'allow',
): Promise<ApiResponse> {
  const cookie = key ? await sessionCookieForKey(server, key) : null;
  const page = await server.call('GET', `/oauth/authorize?${new URLSearchParams(params)}`, {
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
  });
  if (!cookie || page.status !== 200) return page;
  return postConsent(server, { ...consentFormFields(page.text), decision }, cookie, headers);
}

/** Where an answer sends the browser: a 302 Location or the return page's meta refresh. */
export function destinationOf(res: ApiResponse): string {
  if (res.status === 302) return String(res.headers.location);
  assert.equal(res.status, 200, res.text);
  const match = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(res.text);
  assert.ok(match, `no redirect in ${res.text}`);
  return unescapeHtml(match[1]!);
}

/** The query of the redirect, after checking it goes to `redirect`. */
export function redirectedTo(res: ApiResponse, redirect = REDIRECT): URLSearchParams {
  const location = new URL(destinationOf(res));
  assert.equal(`${location.origin}${location.pathname}`, redirect);
  return location.searchParams;
}

/** POST /oauth/token, form-encoded like OAuth clients do. */
export function token(
  server: TestServer,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return server.call('POST', '/oauth/token', {
    raw: new URLSearchParams(params).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers,
  });
}

export function legacyToken(
  server: TestServer,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return server.call('GET', `/oauth/token?${new URLSearchParams(params)}`, { headers });
}

export function bearer(
  server: TestServer,
  accessToken: string,
  path: string,
): Promise<ApiResponse> {
  return server.call('GET', path, { headers: { authorization: `Bearer ${accessToken}` } });
}

export function assertTokenError(
  res: ApiResponse,
  status: number,
  error: string,
  description?: RegExp,
): void {
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
    await authorize(
      server,
      {
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: REDIRECT,
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      userKey,
    ),
  );
  const code = query.get('code')!;
  const params: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: client.clientId,
    code_verifier: verifier,
  };
  if (client.clientSecret) params.client_secret = client.clientSecret;
  const res = await token(server, params);
  assert.equal(res.status, 200, res.text);
  return { ...res.body, code };
}
