import type { Config } from '../../platform/config.js';
import type { Trx } from '../../platform/db/database.js';
import { hashSecret, newSecret } from '../keys.js';
import type {} from './auth.tables.js';

export const SETUP_LINK_MS = 7 * 86400_000;
export const RESET_LINK_MS = 3600_000;
export const INVITE_LINK_MS = 7 * 86400_000;

/** Token prefixes tell POST /auth/password which table a link's token lives in. */
export const PASSWORD_TOKEN_PREFIX = 'hpw';
export const INVITE_TOKEN_PREFIX = 'hinv';

export const iso = (ms: number) => new Date(ms).toISOString();

/** The one page of the web app where setup, invite and reset links lead. */
export function setPasswordLink(config: Config, token: string): string {
  return `${config.publicUrl}/set-password?token=${encodeURIComponent(token)}`;
}

/** A one-time setup or reset token for a user; returned once, stored as its hash. */
export async function createPasswordToken(
  trx: Trx,
  input: { accountId: number; userId: number; purpose: 'setup' | 'reset'; ttlMs: number },
  now: number,
): Promise<{ token: string; expiresAt: string }> {
  const token = newSecret(PASSWORD_TOKEN_PREFIX);
  const expiresAt = iso(now + input.ttlMs);
  await trx
    .insertInto('password_tokens')
    .values({
      account_id: input.accountId,
      user_id: input.userId,
      purpose: input.purpose,
      token_hash: hashSecret(token),
      expires_at: expiresAt,
      created_at: iso(now),
    })
    .execute();
  return { token, expiresAt };
}
