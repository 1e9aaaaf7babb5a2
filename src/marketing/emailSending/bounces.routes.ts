import { createHash, timingSafeEqual } from 'node:crypto';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { ApiError, conflict } from '../../platform/http/errors.js';
import { serverSecret } from '../../accounts/webhooks/signing.js';
import { linkKeys } from './tracking-links.js';
import { parseDsn } from './dsn.js';
import { recordBounceReport } from './bounces.service.js';

const REPORT_TYPES = ['message/rfc822', 'multipart/report', 'application/octet-stream'];
const digest = (value: string) => createHash('sha256').update(value).digest();

/** The bearer secret, compared in constant time (both sides hashed to the same length). */
function authorized(header: string | undefined, secret: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(secret)) && given.length > 0;
}

/**
 * Bounce reports (DSNs) piped in by the operator's mail server: Hearth receives no mail itself.
 * POST /e/bounces with the raw report as the body and `Authorization: Bearer HEARTH_BOUNCE_SECRET`.
 */
export const bounceRoutes: RoutePlugin = async (instance, { ctx }) => {
  const keys = linkKeys(serverSecret(ctx.config));
  instance.addContentTypeParser(
    REPORT_TYPES,
    { parseAs: 'buffer', bodyLimit: 2 * 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  instance.post(
    '/e/bounces',
    { schema: { hide: true }, config: { auth: 'none' } },
    async (request) => {
      const secret = ctx.config.email.bounceSecret;
      if (!secret)
        throw conflict(
          'Bounce reports are off: set HEARTH_BOUNCE_SECRET on the server to take them',
        );
      if (!authorized(request.headers.authorization, secret))
        throw new ApiError(
          401,
          'UNAUTHORIZED',
          'Give Authorization: Bearer <HEARTH_BOUNCE_SECRET>',
        );
      const body = request.body;
      const raw = Buffer.isBuffer(body)
        ? body.toString('latin1')
        : typeof body === 'string'
          ? body
          : '';
      const report = parseDsn(raw);
      if (!report)
        throw new ApiError(
          422,
          'UNPROCESSABLE',
          'Not a delivery status notification: no message/delivery-status part (RFC 3464) was found',
        );
      return recordBounceReport(ctx, keys, report);
    },
  );
};
