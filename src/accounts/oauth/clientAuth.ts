import type { DbOrTrx } from '../../platform/db/database.js';
import { secretMatches } from '../keys.js';
import { findClient, type OAuthClient } from './clients.js';
import { invalidRequest, OAuthError } from './oauth.errors.js';

export interface PresentedClient {
  clientId: string | undefined;
  secret: string | undefined;
  /** How the client authenticated: HTTP Basic (RFC 6749 2.3.1), body parameters, or client_id alone (public clients). */
  via: 'basic' | 'body';
}

/** RFC 6749 2.3.1: client id and secret are form-encoded before being joined with ':' and base64-encoded. */
function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

function basicCredentials(
  authorization: string | undefined,
): { id: string; secret: string } | null {
  if (!authorization) return null;
  const [scheme, value] = authorization.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic') return null;
  const decoded = Buffer.from(value ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1)
    throw new OAuthError(
      'invalid_client',
      'Malformed HTTP Basic credentials: expected base64(client_id:client_secret)',
      { basicChallenge: true },
    );
  try {
    return {
      id: formDecode(decoded.slice(0, colon)),
      secret: formDecode(decoded.slice(colon + 1)),
    };
  } catch {
    throw new OAuthError(
      'invalid_client',
      'Malformed HTTP Basic credentials: invalid percent-encoding',
      { basicChallenge: true },
    );
  }
}

/** Reads the client's credentials from HTTP Basic or from the request parameters (never both). */
export function presentedClient(
  authorization: string | undefined,
  params: { client_id?: string; client_secret?: string },
): PresentedClient {
  const basic = basicCredentials(authorization);
  if (!basic) return { clientId: params.client_id, secret: params.client_secret, via: 'body' };
  if (params.client_secret !== undefined) {
    throw invalidRequest(
      'Send the client credentials either with HTTP Basic or as client_id/client_secret parameters, not both',
    );
  }
  if (params.client_id !== undefined && params.client_id !== basic.id) {
    throw invalidRequest('client_id differs from the client named in the HTTP Basic credentials');
  }
  // A public client may send Basic with an empty password.
  return {
    clientId: basic.id,
    secret: basic.secret === '' ? undefined : basic.secret,
    via: 'basic',
  };
}

/**
 * Confidential clients prove themselves with their secret; public clients (PKCE) present their
 * client_id alone and must not send a secret. Every failure is invalid_client (401).
 */
export async function authenticateClient(
  db: DbOrTrx,
  presented: PresentedClient,
): Promise<OAuthClient> {
  const fail = (description: string, missing?: string[]) =>
    new OAuthError('invalid_client', description, {
      basicChallenge: presented.via === 'basic',
      missing,
    });
  if (!presented.clientId)
    throw fail(
      'Client authentication is required: send client_id (and client_secret for confidential clients) with HTTP Basic or as parameters',
      ['client_id'],
    );
  const client = await findClient(db, presented.clientId);
  if (!client) throw fail('Unknown client');
  if (client.isPublic) {
    if (presented.secret !== undefined)
      throw fail('This is a public client: it has no secret and must not send one');
    return client;
  }
  if (presented.secret === undefined)
    throw fail(
      'client_secret is required for this confidential client',
      presented.via === 'body' ? ['client_secret'] : undefined,
    );
  if (!client.secretHash || !secretMatches(presented.secret, client.secretHash))
    throw fail('Client authentication failed');
  return client;
}
