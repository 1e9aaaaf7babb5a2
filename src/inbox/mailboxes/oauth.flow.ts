import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { serverSecret } from '../../accounts/webhooks/signing.js';
import {
  grantCredentials,
  OAuthFailed,
  type OAuthProviderName,
  providerConfig,
  SCOPES,
  SERVERS,
  tokenRequest,
} from './oauth.js';
import { mailboxAddress, storeMailbox } from './mailboxes.service.js';

/** How long a sign-in started in Hearth may take at the provider. */
const STATE_TTL_MS = 10 * 60 * 1000;

export const callbackPath = (provider: OAuthProviderName) =>
  `/v1/mailboxes/oauth/${provider}/callback`;

function sign(ctx: AppContext, payload: string): string {
  return createHmac('sha256', `mailbox oauth state\u0000${serverSecret(ctx.config)}`)
    .update(payload)
    .digest('base64url');
}

/** The `state` of a sign-in: who started it, for which provider, until when; signed. */
function makeState(ctx: AppContext, auth: AuthUser, provider: OAuthProviderName): string {
  const payload = Buffer.from(
    JSON.stringify({
      a: auth.accountId,
      u: auth.userId,
      p: provider,
      e: ctx.clock.now() + STATE_TTL_MS,
      n: randomBytes(8).toString('hex'),
    }),
  ).toString('base64url');
  return `${payload}.${sign(ctx, payload)}`;
}

/** The state must be ours, unexpired, for this provider and this signed-in user. */
function checkState(ctx: AppContext, auth: AuthUser, provider: OAuthProviderName, state: string) {
  const [payload, mac] = state.split('.');
  const expected = Buffer.from(sign(ctx, payload ?? ''));
  const given = Buffer.from(mac ?? '');
  if (!payload || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw badRequest('The sign-in state is not valid: start again from Settings');
  const s = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  if (s.a !== auth.accountId || s.u !== auth.userId || s.p !== provider)
    throw badRequest('This sign-in was started by someone else: start again from Settings');
  if (typeof s.e !== 'number' || s.e < ctx.clock.now())
    throw badRequest('The sign-in took too long: start again from Settings');
}

function configured(ctx: AppContext, provider: OAuthProviderName) {
  const config = providerConfig(ctx, provider);
  if (!config)
    throw notFound(
      `Sign-in with ${provider} (set HEARTH_MAILBOX_${provider.toUpperCase()}_CLIENT_ID and _SECRET)`,
    );
  return config;
}

/** Where to send the user's browser to sign in with the provider. */
export function authorizeUrl(ctx: AppContext, auth: AuthUser, provider: OAuthProviderName): string {
  const config = configured(ctx, provider);
  const url = new URL(config.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: `${ctx.config.publicUrl}${callbackPath(provider)}`,
    response_type: 'code',
    scope: SCOPES[provider],
    state: makeState(ctx, auth, provider),
    access_type: 'offline',
    prompt: 'consent',
  }).toString();
  return url.toString();
}

/** The email the provider vouches for, from the ID token it just gave over TLS (RFC 6749 4.1.4). */
function emailOf(idToken: string | undefined): string {
  const claims = idToken?.split('.')[1];
  if (!claims) throw new OAuthFailed('The sign-in provider gave no ID token');
  const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  const email = parsed.email ?? parsed.preferred_username;
  if (typeof email !== 'string')
    throw new OAuthFailed('The sign-in provider gave no email address');
  return email;
}

/**
 * The provider's redirect back: the code is exchanged for tokens (with a refresh token), the
 * mailbox stored as app-password mailboxes are, signed in with XOAUTH2 over IMAP and SMTP.
 */
export async function finishSignIn(
  ctx: AppContext,
  auth: AuthUser,
  provider: OAuthProviderName,
  code: string,
  state: string,
) {
  const config = configured(ctx, provider);
  checkState(ctx, auth, provider, state);
  let answer;
  try {
    answer = await tokenRequest(config, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${ctx.config.publicUrl}${callbackPath(provider)}`,
    });
  } catch (err) {
    if (err instanceof OAuthFailed) throw badRequest(err.message);
    throw err;
  }
  let address: string;
  try {
    address = mailboxAddress(emailOf(answer.id_token));
  } catch (err) {
    throw badRequest((err as Error).message);
  }
  const servers = SERVERS[provider];
  return storeMailbox(
    ctx,
    auth,
    address,
    {
      imap_host: servers.imap,
      imap_port: 993,
      imap_secure: 1,
      imap_username: address,
      smtp_host: servers.smtp,
      smtp_port: servers.smtpPort,
      smtp_secure: servers.smtpPort === 465 ? 1 : 0,
      smtp_username: address,
    },
    grantCredentials(provider, answer, null, ctx.clock.now()),
    provider,
  );
}
