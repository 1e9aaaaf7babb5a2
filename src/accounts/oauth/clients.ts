import { randomBytes } from 'node:crypto';
import type { Db, DbOrTrx } from '../../platform/db/database.js';
import { hashSecret, newSecret } from '../keys.js';
import './oauth.tables.js';

export interface OAuthClient {
  id: number;
  accountId: number;
  identifier: string;
  name: string;
  secretHash: string | null;
  isPublic: boolean;
  redirectUris: string[];
  /** An assistant that registered itself (RFC 7591): its name is its own claim. */
  dynamic: boolean;
}

export interface NewOAuthClient {
  accountId: number;
  name: string;
  redirectUris: string[];
  /** Public clients (browser and native apps) get no secret and must use PKCE (S256). */
  isPublic: boolean;
}

const MAX_REDIRECT_URI = 2000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const DANGEROUS_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
]);

/**
 * A redirect URI may be registered when it is absolute and has no fragment (RFC 6749 3.1.2):
 * https anywhere, http only on a loopback host (RFC 8252 7.3), or a native app's private-use scheme
 * in reverse-domain form such as `com.example.app:/callback` (RFC 8252 7.1).
 * Returns a problem description, or null when the URI is acceptable.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI) return `is longer than ${MAX_REDIRECT_URI} characters`;
  if (uri.includes('#')) return 'must not contain a fragment (#…)';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.username || url.password) return 'must not carry user name or password';
  if (url.protocol === 'https:') return url.hostname ? null : 'has no host';
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? null
      : 'must use https (plain http is allowed only for localhost, 127.0.0.1 and [::1])';
  }
  if (DANGEROUS_SCHEMES.has(url.protocol))
    return `uses the scheme ${url.protocol} which cannot receive a redirect`;
  if (!/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)) {
    return 'must use https, loopback http, or a reverse-domain private-use scheme such as com.example.app:/callback';
  }
  return null;
}

/** Registers a client; its secret (confidential clients only) is returned once and stored hashed. */
export async function createOAuthClient(
  db: Db,
  input: NewOAuthClient,
  now = Date.now(),
): Promise<{ clientId: string; clientSecret?: string }> {
  const name = input.name.trim();
  if (!name) throw new Error('The client name must not be empty');
  if (input.redirectUris.length === 0)
    throw new Error('At least one redirect URI is required (--redirect-uri, repeatable)');
  const redirectUris = [...new Set(input.redirectUris.map((u) => u.trim()))];
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new Error(`Redirect URI '${uri}' ${problem}`);
  }
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where('id', '=', input.accountId)
    .executeTakeFirst();
  if (!account) throw new Error(`Account ${input.accountId} does not exist`);

  const clientId = `hoc_${randomBytes(18).toString('base64url')}`;
  const clientSecret = input.isPublic ? undefined : newSecret('hos');
  await db
    .insertInto('oauth_clients')
    .values({
      account_id: input.accountId,
      identifier: clientId,
      name,
      secret_hash: clientSecret ? hashSecret(clientSecret) : null,
      is_public: input.isPublic ? 1 : 0,
      redirect_uris: JSON.stringify(redirectUris),
      created_at: new Date(now).toISOString(),
    })
    .execute();
  return clientSecret ? { clientId, clientSecret } : { clientId };
}

/** Looks a client up by its public client_id; the account is the client's own. */
export async function findClient(
  db: DbOrTrx,
  identifier: string,
): Promise<OAuthClient | undefined> {
  const row = await db
    .selectFrom('oauth_clients')
    .select([
      'id',
      'account_id',
      'identifier',
      'name',
      'secret_hash',
      'is_public',
      'redirect_uris',
      'dynamic',
    ])
    .where('identifier', '=', identifier)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    accountId: row.account_id,
    identifier: row.identifier,
    name: row.name,
    secretHash: row.secret_hash,
    isPublic: row.is_public === 1,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    dynamic: row.dynamic === 1,
  };
}

/** `admin create-oauth-client --account ID --name N --redirect-uri URI (repeatable) [--public]`. */
export async function createOAuthClientCommand(
  db: Db,
  flags: Record<string, string | string[] | true>,
): Promise<{ clientId: string; clientSecret?: string }> {
  const account = flags.account;
  if (typeof account !== 'string' || !/^\d+$/.test(account.trim()))
    throw new Error('--account must be an account id (a number)');
  const name = flags.name;
  if (typeof name !== 'string' || name.trim() === '') throw new Error('--name is required');
  const uris = flags['redirect-uri'];
  const redirectUris = uris === undefined ? [] : Array.isArray(uris) ? uris : [uris];
  if (redirectUris.some((u) => u === true)) throw new Error('--redirect-uri needs a value');
  const isPublic = flags.public;
  if (isPublic !== undefined && isPublic !== true) throw new Error('--public takes no value');
  return createOAuthClient(db, {
    accountId: Number(account),
    name,
    redirectUris: redirectUris as string[],
    isPublic: isPublic === true,
  });
}
