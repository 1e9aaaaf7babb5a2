import assert from 'node:assert/strict';
import type { ApiResponse, TestServer, TestUser } from './server.js';
import { setPassword } from '../../src/accounts/auth/auth.service.js';

export const GOOD_PASSWORD = 'plum-harbor-lantern-42';

export interface SignedIn {
  cookie: string;
  csrfToken: string;
  body: ApiResponse['body'];
}

/** Gives a test user a password (as `set-password` would) and returns their email with it. */
export async function givePassword(
  server: TestServer,
  user: TestUser,
  password = GOOD_PASSWORD,
): Promise<{ email: string; password: string }> {
  const { email } = await server.ctx.db
    .selectFrom('users')
    .select('email')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  await setPassword(server.ctx.db, user.id, password);
  return { email, password };
}

export function login(
  server: TestServer,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return server.call('POST', '/auth/login', { body: { email, password }, headers });
}

/** The `name=value` part of the session cookie a response set. */
export function sessionCookieOf(res: ApiResponse): string {
  const header = res.headers['set-cookie'];
  const line = (Array.isArray(header) ? header : [header ?? '']).find((c) =>
    c.startsWith('hearth_session='),
  );
  assert.ok(line, `no session cookie in ${JSON.stringify(res.headers)}`);
  return line.split(';', 1)[0]!;
}

export async function signIn(
  server: TestServer,
  email: string,
  password = GOOD_PASSWORD,
): Promise<SignedIn> {
  const res = await login(server, email, password);
  assert.equal(res.status, 200, res.text);
  return { cookie: sessionCookieOf(res), csrfToken: res.body.csrfToken, body: res.body };
}

/** A request as the web app makes it: the cookie, and the CSRF token unless told otherwise. */
export function asBrowser(
  server: TestServer,
  session: SignedIn,
  method: string,
  route: string,
  options: { body?: unknown; csrf?: string | null } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { cookie: session.cookie };
  const csrf = options.csrf === undefined ? session.csrfToken : options.csrf;
  if (csrf !== null) headers['x-csrf-token'] = csrf;
  return server.call(method, route, { body: options.body, headers });
}
