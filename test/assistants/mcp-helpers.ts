import { Agent, fetch as undiciFetch } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { basic, PUBLIC_URL, type TestServer } from '../support/server.js';

/** Where an assistant reaches Hearth: its public URL (the test server answers for it). */
export const MCP_URL = new URL(`${PUBLIC_URL}/mcp`);

/**
 * The client's fetch: requests to the public URL go to the test server over TLS that trusts its
 * certificate, as an assistant reaching https://hearth.test would.
 */
export function testFetch(server: TestServer): FetchLike & { close(): Promise<void> } {
  const dispatcher = new Agent({ connect: { ca: server.cert, servername: 'localhost' } });
  const fetchLike = (async (url: string | URL, init?: RequestInit) => {
    const target = String(url).replace(PUBLIC_URL, server.url);
    return undiciFetch(target, { ...(init as object), dispatcher } as never);
  }) as unknown as FetchLike & { close(): Promise<void> };
  fetchLike.close = () => dispatcher.close();
  return fetchLike;
}

/** An MCP client connected through the SDK's Streamable HTTP transport. */
export async function connect(
  server: TestServer,
  options: StreamableHTTPClientTransportOptions = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; close(): Promise<void> }> {
  const fetch = testFetch(server);
  const transport = new StreamableHTTPClientTransport(MCP_URL, { fetch, ...options });
  const client = new Client({ name: 'hearth-test-assistant', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
      await fetch.close();
    },
  };
}

/** An assistant that authenticates with the user's API key (HTTP Basic). */
export const connectWithKey = (server: TestServer, key: string) =>
  connect(server, { requestInit: { headers: { authorization: basic(key) } } });

export const connectWithToken = (server: TestServer, accessToken: string) =>
  connect(server, { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } });

/** A tool's structuredContent (the call asserted successful by the caller). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Structured = any;

/** An assistant's OAuth state, as the SDK keeps it: registration, PKCE verifier, tokens. */
export class TestOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  constructor(
    readonly name: string,
    readonly redirect = 'https://assistant.example.com/callback',
  ) {}

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
