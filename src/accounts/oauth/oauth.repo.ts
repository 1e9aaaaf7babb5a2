import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import { hashSecret, newSecret } from '../keys.js';
import './oauth.tables.js';

/** Authorization codes live 10 minutes (RFC 6749 4.1.2 recommends at most 10). */
export const CODE_TTL_MS = 10 * 60_000;
/** Access tokens live an hour (`expires_in`). */
export const ACCESS_TTL_SECONDS = 3600;
/** A refresh token must be used within 30 days; every use rotates it and starts a new 30 days. */
export const REFRESH_TTL_MS = 30 * 86400_000;

/** Timestamps of these tables keep milliseconds: expiry is compared to the clock to the millisecond. */
export const stamp = (ms: number) => new Date(ms).toISOString();

export interface NewCode {
  accountId: number;
  clientId: number;
  userId: number;
  redirectUri: string;
  redirectUriGiven: boolean;
  codeChallenge: string | null;
  scope: string;
  resource: string | null;
}

/** Stores a new authorization code and returns it; only its hash is kept. */
export async function insertCode(db: DbOrTrx, input: NewCode, now: number): Promise<string> {
  const code = newSecret('hac');
  await db
    .insertInto('oauth_codes')
    .values({
      account_id: input.accountId,
      client_id: input.clientId,
      user_id: input.userId,
      code_hash: hashSecret(code),
      redirect_uri: input.redirectUri,
      redirect_uri_given: input.redirectUriGiven ? 1 : 0,
      code_challenge: input.codeChallenge,
      scope: input.scope,
      resource: input.resource,
      expires_at: stamp(now + CODE_TTL_MS),
      created_at: stamp(now),
    })
    .execute();
  return code;
}

export async function findCode(trx: Trx, code: string) {
  return trx
    .selectFrom('oauth_codes')
    .selectAll()
    .where('code_hash', '=', hashSecret(code))
    .executeTakeFirst();
}

/** Marks a code used; false when it already was (a replay, or a concurrent redemption that won). */
export async function consumeCode(trx: Trx, codeId: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('oauth_codes')
    .set({ used_at: stamp(now) })
    .where('id', '=', codeId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  issuedAt: number;
}

/** Issues a new access/refresh pair in the family of `codeId`. */
export async function insertTokenPair(
  trx: Trx,
  input: {
    accountId: number;
    clientId: number;
    userId: number;
    codeId: number;
    resource: string | null;
  },
  now: number,
): Promise<IssuedTokens> {
  const accessToken = newSecret('hat');
  const refreshToken = newSecret('hrt');
  await trx
    .insertInto('oauth_tokens')
    .values({
      account_id: input.accountId,
      client_id: input.clientId,
      user_id: input.userId,
      code_id: input.codeId,
      access_hash: hashSecret(accessToken),
      refresh_hash: hashSecret(refreshToken),
      access_expires_at: stamp(now + ACCESS_TTL_SECONDS * 1000),
      refresh_expires_at: stamp(now + REFRESH_TTL_MS),
      created_at: stamp(now),
      resource: input.resource,
    })
    .execute();
  return { accessToken, refreshToken, expiresIn: ACCESS_TTL_SECONDS, issuedAt: now };
}

export async function findTokenByRefresh(trx: Trx, refreshToken: string) {
  return trx
    .selectFrom('oauth_tokens')
    .selectAll()
    .where('refresh_hash', '=', hashSecret(refreshToken))
    .executeTakeFirst();
}

/** Marks a refresh token exchanged; false when it already was or was revoked meanwhile. */
export async function markRefreshed(trx: Trx, tokenId: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('oauth_tokens')
    .set({ refreshed_at: stamp(now) })
    .where('id', '=', tokenId)
    .where('refreshed_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes every access and refresh token descended from one authorization code. */
export async function revokeFamily(
  trx: Trx,
  accountId: number,
  codeId: number,
  now: number,
): Promise<void> {
  await trx
    .updateTable('oauth_tokens')
    .set({ revoked_at: stamp(now) })
    .where('account_id', '=', accountId)
    .where('code_id', '=', codeId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The user an access token acts for, when the token is live. */
export async function findLiveAccessToken(db: DbOrTrx, accessToken: string, now: number) {
  const row = await db
    .selectFrom('oauth_tokens as t')
    .innerJoin('users as u', (join) =>
      join.onRef('u.id', '=', 't.user_id').onRef('u.account_id', '=', 't.account_id'),
    )
    .innerJoin('oauth_clients as c', 'c.id', 't.client_id')
    .select([
      't.access_expires_at',
      't.revoked_at',
      't.code_id',
      't.resource',
      't.client_id',
      'c.name as client_name',
      'u.id',
      'u.account_id',
      'u.role',
      'u.name',
      'u.email',
      'u.deleted_at',
    ])
    .where('t.access_hash', '=', hashSecret(accessToken))
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return { status: 'unknown' as const };
  // A deactivated user's tokens are revoked with them; the check also covers one issued meanwhile.
  if (row.revoked_at !== null || row.deleted_at !== null) return { status: 'revoked' as const };
  if (row.access_expires_at <= stamp(now)) return { status: 'expired' as const };
  return { status: 'live' as const, user: row, codeId: row.code_id };
}

/**
 * Housekeeping: token rows whose refresh token can no longer be used, then codes that are past
 * their lifetime and have no tokens left (a code with live tokens is kept for replay detection).
 */
export async function purgeExpired(db: DbOrTrx, now: number): Promise<void> {
  const cutoff = stamp(now - 86400_000);
  await db.deleteFrom('oauth_tokens').where('refresh_expires_at', '<', cutoff).execute();
  const withTokens = db.selectFrom('oauth_tokens').select('code_id');
  await db
    .deleteFrom('oauth_codes')
    .where('expires_at', '<', cutoff)
    .where('id', 'not in', withTokens)
    .execute();
}

/** Whether the user a code or token was issued for is still an active user of its account. */
export async function grantUserActive(
  trx: Trx,
  grant: { account_id: number; user_id: number },
): Promise<boolean> {
  const user = await trx
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', grant.account_id)
    .where('id', '=', grant.user_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return user !== undefined;
}

/**
 * Ends everything OAuth holds for a user being deactivated: every token is revoked and every code
 * not yet exchanged is deleted (a used code stays, as its tokens' family, for replay detection).
 */
export async function endUserGrants(
  trx: Trx,
  accountId: number,
  userId: number,
  now: number,
): Promise<void> {
  await trx
    .updateTable('oauth_tokens')
    .set({ revoked_at: stamp(now) })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  await trx
    .deleteFrom('oauth_codes')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
