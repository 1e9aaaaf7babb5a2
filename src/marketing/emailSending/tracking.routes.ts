import type { FastifyReply } from 'fastify';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { serverSecret } from '../../accounts/webhooks/signing.js';
import { findAccount } from '../../accounts/accounts.repo.js';
import { acceptMultipartForms } from './multipart-form.js';
import { linkKeys, validClickSignature } from './tracking-links.js';
import {
  alreadyUnsubscribed,
  findTrackedMessage,
  recordTracked,
  type TrackedMessage,
  viewHtml,
} from './tracking.service.js';
import {
  notFoundPage,
  PIXEL,
  unsubscribedPage,
  unsubscribePage,
  VIEW_CSP,
  viewPage,
} from './tracking.pages.js';

const publicRoute = { schema: { hide: true }, config: { auth: 'none' as const } };
type TokenParams = { Params: { token: string } };

const html = (reply: FastifyReply, status: number, body: string) =>
  reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body);

/**
 * The public side of built-in email on HEARTH_PUBLIC_URL/e/...: the open pixel, click redirects
 * (only to links signed into the message), unsubscribe (page + RFC 8058 one-click POST) and the
 * message in the browser. The token is the recipient's random key; unknown tokens get 404.
 */
export const trackingRoutes: RoutePlugin = async (app, { ctx }) => {
  // RFC 8058 3.1: receivers SHOULD send the one-click POST as multipart/form-data (this plugin only).
  acceptMultipartForms(app);
  const keys = linkKeys(serverSecret(ctx.config));
  const senderName = async (message: TrackedMessage) =>
    (await findAccount(ctx.db, message.account_id))?.name ?? 'this sender';

  /** Opens and clicks are recorded on the way: a failure is logged, the reader still gets the page. */
  const recordQuietly = async (message: TrackedMessage, type: 'open' | 'click', url?: string) => {
    try {
      await recordTracked(ctx, message, type, url);
    } catch (err) {
      ctx.log.error({ err, type }, 'could not record a campaign email event');
    }
  };

  app.get<{ Params: { file: string } }>('/e/o/:file', publicRoute, async (request, reply) => {
    const message = await findTrackedMessage(ctx, request.params.file.replace(/\.gif$/, ''));
    if (message) await recordQuietly(message, 'open');
    return reply.header('cache-control', 'no-store').type('image/gif').send(PIXEL);
  });

  app.get<TokenParams & { Querystring: { u?: string; s?: string } }>(
    '/e/c/:token',
    publicRoute,
    async (request, reply) => {
      const { u, s } = request.query;
      const { token } = request.params;
      const signed = typeof u === 'string' && typeof s === 'string';
      if (!signed || !validClickSignature(keys, token, u, s))
        return html(reply, 404, notFoundPage());
      const message = await findTrackedMessage(ctx, token);
      if (!message) return html(reply, 404, notFoundPage());
      await recordQuietly(message, 'click', u);
      return reply.header('cache-control', 'no-store').redirect(u, 302);
    },
  );

  app.get<TokenParams>('/e/u/:token', publicRoute, async (request, reply) => {
    const message = await findTrackedMessage(ctx, request.params.token);
    if (!message) return html(reply, 404, notFoundPage());
    const sender = await senderName(message);
    if (await alreadyUnsubscribed(ctx, message))
      return html(reply, 200, unsubscribedPage(message.email, sender));
    return html(reply, 200, unsubscribePage(message.email, sender, request.url));
  });

  // RFC 8058: mail clients POST "List-Unsubscribe=One-Click" here; the page's form does the same.
  app.post<TokenParams>('/e/u/:token', publicRoute, async (request, reply) => {
    const message = await findTrackedMessage(ctx, request.params.token);
    if (!message) return html(reply, 404, notFoundPage());
    if (!(await alreadyUnsubscribed(ctx, message)))
      await recordTracked(ctx, message, 'unsubscribe');
    return html(reply, 200, unsubscribedPage(message.email, await senderName(message)));
  });

  app.get<TokenParams>('/e/v/:token', publicRoute, async (request, reply) => {
    const message = await findTrackedMessage(ctx, request.params.token);
    const view = message && (await viewHtml(ctx, keys, message));
    if (!message || !view) return html(reply, 404, notFoundPage());
    await recordQuietly(message, 'open');
    reply.header('content-security-policy', VIEW_CSP);
    return html(reply, 200, viewPage(view.subject, view.html));
  });
};
