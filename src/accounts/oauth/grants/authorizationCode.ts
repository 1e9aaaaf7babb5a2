import type { AppContext } from '../../../platform/context.js';
import type { OAuthClient } from '../clients.js';
import { invalidGrant, invalidTarget, type OAuthError } from '../oauth.errors.js';
import {
  consumeCode,
  findCode,
  grantUserActive,
  insertTokenPair,
  type IssuedTokens,
  revokeFamily,
  stamp,
} from '../oauth.repo.js';
import { verifierMatches } from '../pkce.js';

export interface AuthorizationCodeParams {
  code: string;
  redirectUri?: string;
  codeVerifier?: string;
  resource?: string;
}

/**
 * RFC 6749 4.1.3 with PKCE (RFC 7636). A code is consumed by the first redemption attempt of its
 * client even when that attempt fails, so a code can never be tried twice; presenting a used code
 * again revokes every token issued from it (RFC 6749 4.1.2). The consumption and any revocation
 * commit even when the answer is an error.
 */
export async function authorizationCodeGrant(
  ctx: AppContext,
  client: OAuthClient,
  params: AuthorizationCodeParams,
): Promise<IssuedTokens> {
  const now = ctx.clock.now();
  const outcome = await ctx.db
    .transaction()
    .execute(async (trx): Promise<IssuedTokens | OAuthError> => {
      const code = await findCode(trx, params.code);
      if (!code) return invalidGrant('The authorization code is invalid');
      if (code.client_id !== client.id)
        return invalidGrant('The authorization code was issued to another client');
      if (!(await consumeCode(trx, code.id, now))) {
        await revokeFamily(trx, code.account_id, code.id, now);
        return invalidGrant(
          'The authorization code has already been used; the tokens issued from it have been revoked',
        );
      }
      if (code.expires_at <= stamp(now))
        return invalidGrant(
          'The authorization code has expired; authorization codes are valid for 10 minutes',
        );
      if (!(await grantUserActive(trx, code)))
        return invalidGrant('The user who granted this authorization has been deactivated');
      if (
        code.redirect_uri_given === 1
          ? params.redirectUri !== code.redirect_uri
          : params.redirectUri !== undefined && params.redirectUri !== code.redirect_uri
      ) {
        return invalidGrant('redirect_uri does not match the one of the authorization request');
      }
      if (code.code_challenge !== null) {
        if (params.codeVerifier === undefined)
          return invalidGrant(
            'code_verifier is required: the authorization request carried a PKCE code_challenge',
          );
        if (!verifierMatches(params.codeVerifier, code.code_challenge))
          return invalidGrant('code_verifier does not match the code_challenge');
      } else if (params.codeVerifier !== undefined) {
        return invalidGrant(
          'code_verifier was sent but the authorization request carried no code_challenge',
        );
      }
      if (params.resource !== undefined && params.resource !== code.resource)
        return invalidTarget(code.resource);
      const { account_id: accountId, user_id: userId, id: codeId, resource } = code;
      return insertTokenPair(
        trx,
        { accountId, clientId: client.id, userId, codeId, resource },
        now,
      );
    });
  if (outcome instanceof Error) throw outcome;
  return outcome;
}
