import { randomBytes } from 'node:crypto';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import { findClient, type OAuthClient, redirectUriProblem } from './clients.js';
import { stamp } from './oauth.repo.js';
import './oauth.tables.js';

/** A self-registered client (RFC 7591) no user has allowed yet: it belongs to no account. */
export interface PendingClient extends Omit<OAuthClient, 'id' | 'accountId'> {
  id: null;
  accountId: null;
  registrationId: number;
}

/** What /oauth/authorize may be asked for: a client of an account, or a pending registration. */
export type AuthorizingClient = OAuthClient | PendingClient;

export const MAX_CLIENT_NAME = 100;
export const MAX_REDIRECT_URIS = 10;

export class RegistrationProblem extends Error {
  constructor(
    readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata',
    message: string,
  ) {
    super(message);
  }
}

/** Control characters and surrounding space out: the name is shown on the consent page. */
function cleanName(name: unknown): string {
  if (name === undefined) return 'AI assistant';
  if (typeof name !== 'string')
    throw new RegistrationProblem('invalid_client_metadata', 'client_name must be a string');
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  if (!cleaned)
    throw new RegistrationProblem('invalid_client_metadata', 'client_name must not be empty');
  if (cleaned.length > MAX_CLIENT_NAME)
    throw new RegistrationProblem(
      'invalid_client_metadata',
      `client_name must be at most ${MAX_CLIENT_NAME} characters`,
    );
  return cleaned;
}

function checkedRedirectUris(uris: unknown): string[] {
  if (!Array.isArray(uris) || uris.length === 0)
    throw new RegistrationProblem(
      'invalid_redirect_uri',
      'redirect_uris must list at least one URI',
    );
  if (uris.length > MAX_REDIRECT_URIS)
    throw new RegistrationProblem(
      'invalid_redirect_uri',
      `redirect_uris may list at most ${MAX_REDIRECT_URIS} URIs`,
    );
  for (const uri of uris) {
    if (typeof uri !== 'string')
      throw new RegistrationProblem('invalid_redirect_uri', 'redirect_uris must be strings');
    const problem = redirectUriProblem(uri);
    if (problem) throw new RegistrationProblem('invalid_redirect_uri', `'${uri}' ${problem}`);
  }
  return [...new Set(uris as string[])];
}

/** Stores a public client's registration; throws RegistrationProblem for metadata to fix. */
export async function registerClient(
  db: DbOrTrx,
  metadata: { client_name?: unknown; redirect_uris?: unknown },
  now: number,
): Promise<{ clientId: string; name: string; redirectUris: string[] }> {
  const name = cleanName(metadata.client_name);
  const redirectUris = checkedRedirectUris(metadata.redirect_uris);
  const clientId = `hdc_${randomBytes(18).toString('base64url')}`;
  await db
    .insertInto('oauth_registrations')
    .values({
      identifier: clientId,
      name,
      redirect_uris: JSON.stringify(redirectUris),
      created_at: stamp(now),
    })
    .execute();
  return { clientId, name, redirectUris };
}

/** Registrations made since `since` (the cap on how many may wait for a consent). */
export async function registrationsSince(db: DbOrTrx, since: number): Promise<number> {
  const row = await db
    .selectFrom('oauth_registrations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>', stamp(since))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A client of an account, or else a registration still waiting for its first consent. */
export async function findAuthorizingClient(
  db: DbOrTrx,
  identifier: string,
): Promise<AuthorizingClient | undefined> {
  const client = await findClient(db, identifier);
  if (client) return client;
  const row = await db
    .selectFrom('oauth_registrations')
    .select(['id', 'identifier', 'name', 'redirect_uris'])
    .where('identifier', '=', identifier)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: null,
    accountId: null,
    registrationId: row.id,
    identifier: row.identifier,
    name: row.name,
    secretHash: null,
    isPublic: true,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    dynamic: true,
  };
}

/**
 * The first consent moves a registration into the consenting user's account. When another
 * consent claimed it first, the client as it now is: the caller checks its account.
 */
export async function claimRegistration(
  trx: Trx,
  pending: PendingClient,
  accountId: number,
  now: number,
): Promise<OAuthClient | undefined> {
  const removed = await trx
    .deleteFrom('oauth_registrations')
    .where('id', '=', pending.registrationId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 1) {
    await trx
      .insertInto('oauth_clients')
      .values({
        account_id: accountId,
        identifier: pending.identifier,
        name: pending.name,
        secret_hash: null,
        is_public: 1,
        redirect_uris: JSON.stringify(pending.redirectUris),
        created_at: stamp(now),
        dynamic: 1,
      })
      .execute();
  }
  return findClient(trx, pending.identifier);
}

/** Registrations nobody allowed within a day are dropped (the assistant registers again). */
export async function purgeUnclaimedRegistrations(db: DbOrTrx, now: number): Promise<void> {
  await db
    .deleteFrom('oauth_registrations')
    .where('created_at', '<', stamp(now - 86400_000))
    .execute();
}
