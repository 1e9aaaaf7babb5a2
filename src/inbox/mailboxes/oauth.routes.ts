import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { responses } from '../../platform/http/schemas.js';
import { ApiError } from '../../platform/http/errors.js';
import { authorizeUrl, finishSignIn } from './oauth.flow.js';
import { providerConfig, type OAuthProviderName } from './oauth.js';

const tags = ['mailboxes'];
const PROVIDERS: OAuthProviderName[] = ['google', 'microsoft'];
const ProviderName = Type.Union([Type.Literal('google'), Type.Literal('microsoft')]);
const Provider = Type.Object({ provider: ProviderName });

/** Why the provider sent the browser back without a code (RFC 6749 4.1.2.1), in words. */
function refusal(error: string | undefined): string {
  if (error === 'access_denied') return 'The sign-in was cancelled at the provider';
  return `The provider did not sign you in (${error ?? 'no code was given'})`;
}

/**
 * Mailboxes signed in with Google or Microsoft (OAuth 2.0, XOAUTH2 over IMAP and SMTP), when
 * the server has the provider's client id and secret. Start answers where to send the browser;
 * the provider sends it back to the callback, which stores the mailbox and returns to Settings.
 */
export const mailboxOAuthRoutes: RoutePlugin = async (app, { ctx }) => {
  app.get(
    '/v1/mailboxes/oauth',
    {
      schema: {
        tags,
        summary: 'The providers this server can sign mailboxes in with (Google, Microsoft)',
        response: responses({ 200: Type.Object({ providers: Type.Array(ProviderName) }) }),
      },
    },
    async () => ({ providers: PROVIDERS.filter((name) => providerConfig(ctx, name)) }),
  );

  app.get(
    '/v1/mailboxes/oauth/:provider/start',
    {
      schema: {
        tags,
        summary: 'Start connecting your Google or Microsoft mailbox (answers the sign-in URL)',
        params: Provider,
        response: responses({ 200: Type.Object({ authorizeUrl: Type.String() }) }),
      },
    },
    async (request) => ({
      authorizeUrl: authorizeUrl(ctx, request.auth, request.params.provider),
    }),
  );

  app.get(
    '/v1/mailboxes/oauth/:provider/callback',
    {
      schema: {
        tags,
        summary:
          "The provider's redirect back after sign-in: stores the mailbox, then to /settings",
        params: Provider,
        querystring: Type.Object(
          {
            code: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
            state: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
            error: Type.Optional(Type.String({ maxLength: 256 })),
          },
          // Providers add their own parameters (authuser, hd, prompt, session_state…).
          { additionalProperties: true },
        ),
        response: responses({ 302: Type.Null() }),
      },
    },
    // A browser arrives here, not a program: success and refusal both go back to Settings,
    // which says what happened.
    async (request, reply) => {
      const back = (query: Record<string, string>) =>
        reply.redirect(`/settings?${new URLSearchParams(query)}`, 302);
      const { code, state, error } = request.query;
      if (!code || !state) return back({ mailboxError: refusal(error) });
      try {
        const row = await finishSignIn(ctx, request.auth, request.params.provider, code, state);
        return back({ mailbox: String(row.id) });
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) return back({ mailboxError: err.message });
        throw err;
      }
    },
  );
};
