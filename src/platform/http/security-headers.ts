import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
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

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: PAGE_CSP_DIRECTIVES },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  // same-origin, not no-referrer: a form POST with no-referrer carries `Origin: null`.
  referrerPolicy: { policy: 'same-origin' },
  frameguard: { action: 'deny' },
  // Same-origin pages load nothing cross-origin; these would only get in the way of API clients.
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: false,
};

/**
 * The headers helmet writes with these options, read once by running it against a recording
 * response: they do not depend on the request, and helmet would otherwise rebuild them (the CSP
 * parsed and formatted anew) for every answer.
 */
function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name.toLowerCase(), String(value)]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, recorder, () => undefined);
  return headers;
}

const API_PATH = /^\/v1(?:[/?#]|$)/;

/**
 * Security headers on every answer (helmet's, computed once): HSTS, nosniff, Referrer-Policy, the
 * page CSP, no framing. API answers carry personal data, so no cache may keep them.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = helmetHeaders(HELMET_OPTIONS);
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    if (API_PATH.test(request.url)) reply.header('cache-control', 'no-store');
    done();
  });
}
