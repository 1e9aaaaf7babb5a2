import type { AppContext } from '../../platform/context.js';
import type { MailOAuthProvider } from '../../platform/config-mailbox.js';
import { type MailCredentials, openCredentials, sealCredentials } from './credentials.js';
import type { MailboxRow } from './mailboxes.repo.js';

export type OAuthProviderName = 'google' | 'microsoft';

/** The scopes that give IMAP and SMTP access with XOAUTH2 (and a refresh token). */
export const SCOPES: Record<OAuthProviderName, string> = {
  google: 'https://mail.google.com/ openid email',
  microsoft:
    'https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send offline_access openid email',
};

/** Mail servers of each provider (XOAUTH2 is only offered with TLS). */
export const SERVERS: Record<OAuthProviderName, { imap: string; smtp: string; smtpPort: number }> =
  {
    google: { imap: 'imap.gmail.com', smtp: 'smtp.gmail.com', smtpPort: 465 },
    microsoft: { imap: 'outlook.office365.com', smtp: 'smtp.office365.com', smtpPort: 587 },
  };

export class OAuthFailed extends Error {}

export function providerConfig(ctx: AppContext, name: OAuthProviderName): MailOAuthProvider | null {
  return ctx.config.mailbox[name];
}

export interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  id_token?: string;
  error?: string;
  error_description?: string;
}

/** One call to the provider's token endpoint (RFC 6749 section 4.1.3 and 6), bounded in time and size. */
export async function tokenRequest(
  provider: MailOAuthProvider,
  params: Record<string, string>,
): Promise<TokenAnswer> {
  let res: Response;
  try {
    res = await fetch(provider.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        ...params,
      }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new OAuthFailed(`The sign-in provider did not answer: ${(err as Error).message}`);
  }
  const text = (await res.text()).slice(0, 64 * 1024);
  let body: TokenAnswer;
  try {
    body = JSON.parse(text) as TokenAnswer;
  } catch {
    throw new OAuthFailed(`The sign-in provider answered ${res.status} without JSON`);
  }
  if (!res.ok || !body.access_token)
    throw new OAuthFailed(
      `The sign-in provider refused: ${body.error_description ?? body.error ?? `HTTP ${res.status}`}`,
    );
  return body;
}

export function grantCredentials(
  provider: OAuthProviderName,
  answer: TokenAnswer,
  previousRefresh: string | null,
  now: number,
): MailCredentials {
  return {
    kind: 'oauth',
    provider,
    accessToken: answer.access_token!,
    refreshToken: answer.refresh_token ?? previousRefresh,
    expiresAt: now + (answer.expires_in ?? 3600) * 1000,
  };
}

/**
 * A mailbox's credentials, ready to sign in: an OAuth access token that expires within a minute
 * is refreshed first and the new grant stored (sealed) for the next session.
 */
export async function freshCredentials(ctx: AppContext, row: MailboxRow): Promise<MailCredentials> {
  const credentials = openCredentials(ctx.config, row.secret);
  if (credentials.kind !== 'oauth') return credentials;
  const now = ctx.clock.now();
  if (credentials.expiresAt - 60_000 > now) return credentials;
  const provider = providerConfig(ctx, credentials.provider);
  if (!provider)
    throw new OAuthFailed(
      `Sign-in with ${credentials.provider} is not configured on this server any more`,
    );
  if (!credentials.refreshToken)
    throw new OAuthFailed('The sign-in has expired: disconnect and connect the mailbox again');
  const answer = await tokenRequest(provider, {
    grant_type: 'refresh_token',
    refresh_token: credentials.refreshToken,
  });
  const renewed = grantCredentials(credentials.provider, answer, credentials.refreshToken, now);
  await ctx.db
    .updateTable('mailboxes')
    .set({ secret: sealCredentials(ctx.config, renewed) })
    .where('id', '=', row.id)
    .execute();
  return renewed;
}
