import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Google's OAuth endpoints, since the real ones cannot be reached from CI.
 * `/token` records each request and answers like Google (the access token expires at once, so
 * the next session must refresh). `/auth` signs in at once and sends the browser back to
 * `returnTo` (the test server's callback: the configured public URL is not reachable), or
 * refuses with `access_denied` while `deny` is set.
 */
export interface OAuthProviderStandIn {
  seen: URLSearchParams[];
  env: Record<string, string>;
  returnTo: string;
  deny: boolean;
  close(): Promise<void>;
}

const idToken = (email: string) =>
  `e30.${Buffer.from(JSON.stringify({ email })).toString('base64url')}.sig`;

export async function startOAuthProvider(email: string): Promise<OAuthProviderStandIn> {
  let issued = 0;
  const provider: OAuthProviderStandIn = {
    seen: [],
    env: {},
    returnTo: '',
    deny: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const token = async (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const params = new URLSearchParams(body);
    provider.seen.push(params);
    res.setHeader('content-type', 'application/json');
    if (params.get('client_secret') !== 'google-secret' || params.get('code') === 'bad') {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'Bad Request' }));
      return;
    }
    issued++;
    const first = params.get('grant_type') === 'authorization_code';
    res.end(
      JSON.stringify({
        access_token: `access-${issued}`,
        expires_in: 1,
        ...(first ? { refresh_token: 'refresh-1', id_token: idToken(email) } : {}),
      }),
    );
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname === '/token') return void token(req, res);
    const back = new URLSearchParams({ state: url.searchParams.get('state') ?? '' });
    if (provider.deny) back.set('error', 'access_denied');
    else back.set('code', 'code-from-the-browser');
    res.writeHead(302, { location: `${provider.returnTo}?${back}` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  provider.env = {
    HEARTH_MAILBOX_GOOGLE_CLIENT_ID: 'google-client',
    HEARTH_MAILBOX_GOOGLE_CLIENT_SECRET: 'google-secret',
    HEARTH_MAILBOX_GOOGLE_TOKEN_URL: `http://127.0.0.1:${port}/token`,
    HEARTH_MAILBOX_GOOGLE_AUTHORIZE_URL: `http://127.0.0.1:${port}/auth`,
  };
  return provider;
}
