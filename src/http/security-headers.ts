import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every HTML page (the web app, the OAuth consent page, the API
 * reference), fixed in the auth/web contract: only this origin's scripts, no inline script.
 */
export const PAGE_CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

const API_PATH = /^\/v1(?:[/?#]|$)/;

/**
 * Security headers on every answer (helmet): HSTS, nosniff, Referrer-Policy, the page CSP, no
 * framing. API answers carry personal data, so no cache may keep them.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: PAGE_CSP_DIRECTIVES },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    // same-origin, not no-referrer: a form POST with no-referrer carries `Origin: null`.
    referrerPolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    // Same-origin pages load nothing cross-origin; these would only get in the way of API clients.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (API_PATH.test(request.url)) reply.header('cache-control', 'no-store');
  });
}
