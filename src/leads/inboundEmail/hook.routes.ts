import { createHash, timingSafeEqual } from 'node:crypto';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { ApiError, conflict } from '../../platform/http/errors.js';
import { headerRecipients, leadRecipients } from './recipients.js';
import { InboundIntake } from './intake.js';

const MESSAGE_TYPES = ['message/rfc822', 'application/octet-stream', 'text/plain'];
const digest = (value: string) => createHash('sha256').update(value).digest();

/** The bearer secret, compared in constant time (both sides hashed to the same length). */
function authorized(header: string | undefined, secret: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(secret)) && given.length > 0;
}

/**
 * POST /e/inbound: one raw message from a hosted inbound-mail service, `Authorization: Bearer
 * HEARTH_INBOUND_SECRET`. The lead addresses are read from `?to=` (the envelope, comma-separated)
 * or else the message's Delivered-To, X-Original-To, To and Cc. Stored, then 202.
 */
export const inboundHookRoutes: RoutePlugin = async (instance, { ctx }) => {
  const intake = new InboundIntake(ctx);
  const { maxBytes, domain } = ctx.config.inbound;
  instance.addContentTypeParser(
    MESSAGE_TYPES,
    { parseAs: 'buffer', bodyLimit: maxBytes },
    (_request, body, done) => done(null, body),
  );
  instance.post<{ Querystring: { to?: string } }>(
    '/e/inbound',
    { schema: { hide: true }, config: { auth: 'none' }, bodyLimit: maxBytes },
    async (request, reply) => {
      const secret = ctx.config.inbound.secret;
      if (!secret)
        throw conflict('Inbound mail is off: set HEARTH_INBOUND_SECRET on the server to take it');
      if (!authorized(request.headers.authorization, secret))
        throw new ApiError(
          401,
          'UNAUTHORIZED',
          'Give Authorization: Bearer <HEARTH_INBOUND_SECRET>',
        );
      const raw = request.body;
      if (!Buffer.isBuffer(raw) || raw.length === 0)
        throw new ApiError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'Send one raw message as the body with Content-Type: message/rfc822',
        );
      const to = typeof request.query.to === 'string' ? request.query.to.split(',') : [];
      const addresses = to.length ? to.map((a) => a.trim()) : headerRecipients(raw);
      const recipients = await leadRecipients(ctx.db, domain, addresses);
      if (!recipients.length)
        throw new ApiError(
          422,
          'UNPROCESSABLE',
          `None of the message's recipients is a lead address of ${domain} (see GET /v1/identity)`,
        );
      const ids = await intake.store(raw, { mailFrom: '', recipients });
      return reply.code(202).send({ ids, duplicate: ids.length === 0 });
    },
  );
};
