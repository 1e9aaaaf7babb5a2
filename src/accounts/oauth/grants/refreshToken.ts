import type { AppContext } from '../../../platform/context.js';
import type { OAuthClient } from '../clients.js';
import { invalidGrant, invalidTarget, type OAuthError } from '../oauth.errors.js';
import {
  findTokenByRefresh,
  grantUserActive,
  insertTokenPair,
  type IssuedTokens,
  markRefreshed,
  revokeFamily,
  stamp,
} from '../oauth.repo.js';

/**
 * RFC 6749 6 with rotation: every refresh token works once and is replaced by a new one. Presenting
 * a refresh token that was already exchanged means it leaked (or the client lost the new one): the
 * whole family descended from the same authorization code is revoked, access tokens included
 * (OAuth 2.0 Security BCP, RFC 9700 4.14.2).
 */
export async function refreshTokenGrant(
  ctx: AppContext,
  client: OAuthClient,
  refreshToken: string,
  resource?: string,
): Promise<IssuedTokens> {
  const now = ctx.clock.now();
  const outcome = await ctx.db
    .transaction()
    .execute(async (trx): Promise<IssuedTokens | OAuthError> => {
      const token = await findTokenByRefresh(trx, refreshToken);
      if (!token) return invalidGrant('The refresh token is invalid');
      if (token.client_id !== client.id)
        return invalidGrant('The refresh token was issued to another client');
      if (token.revoked_at !== null) return invalidGrant('The refresh token has been revoked');
      if (!(await grantUserActive(trx, token))) {
        await revokeFamily(trx, token.account_id, token.code_id, now);
        return invalidGrant('The user who granted this authorization has been deactivated');
      }
      if (resource !== undefined && resource !== token.resource)
        return invalidTarget(token.resource);
      const reused = async () => {
        await revokeFamily(trx, token.account_id, token.code_id, now);
        return invalidGrant(
          'The refresh token has already been used; every token of this authorization has been revoked',
        );
      };
      if (token.refreshed_at !== null) return reused();
      if (token.refresh_expires_at <= stamp(now))
        return invalidGrant('The refresh token has expired');
      // A concurrent exchange of the same token may have won since it was read.
      if (!(await markRefreshed(trx, token.id, now))) return reused();
      return insertTokenPair(
        trx,
        {
          accountId: token.account_id,
          clientId: client.id,
          userId: token.user_id,
          codeId: token.code_id,
          resource: token.resource,
        },
        now,
      );
    });
  if (outcome instanceof Error) throw outcome;
  return outcome;
}
