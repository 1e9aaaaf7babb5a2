import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { RoutePlugin } from '../http/route-types.js';
import { noRoute } from '../http/errors.js';

/** The built web app: web/dist beside src/ and dist/ (the same two levels up from both). */
export const WEB_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/** Paths the server answers itself: an unknown one there is a JSON 404, never the app's page. */
const SERVER_PREFIXES = [
  '/v1/',
  '/auth/',
  '/oauth/',
  '/docs',
  '/openapi.json',
  '/health',
  '/livez',
];

function isServerPath(path: string): boolean {
  return SERVER_PREFIXES.some(
    (prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix),
  );
}

function sendAppPage(reply: FastifyReply) {
  // The CONTRACT's CSP, nosniff and Referrer-Policy come from src/platform/http/security-headers.ts.
  return reply.header('Cache-Control', 'no-cache').sendFile('index.html', WEB_DIST);
}

/**
 * Serves the single-page app at `/`: hashed assets under /assets (cached for a year), every other
 * GET that is not an API path gets index.html so the app's own router shows the page (history
 * fallback for /login, /people/:id, /admin/...).
 */
export const webRoutes: RoutePlugin = async (app) => {
  if (!existsSync(WEB_DIST)) {
    app.log.warn({ dir: WEB_DIST }, 'web app not built (run npm run build:web); / is not served');
    return;
  }
  await app.register(fastifyStatic, {
    root: WEB_DIST,
    prefix: '/assets-root/',
    wildcard: false,
    serve: false,
  });
  await app.register(fastifyStatic, {
    root: `${WEB_DIST}assets`,
    prefix: '/assets/',
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    index: false,
    // .br/.gz files written at build time (scripts/compress-web.mjs), chosen by Accept-Encoding.
    preCompressed: true,
  });

  const appPage = { schema: { hide: true }, config: { auth: 'none' as const } };
  app.get('/', appPage, (_request, reply) => sendAppPage(reply));
  app.get('/favicon.svg', appPage, (_request, reply) =>
    reply.header('Cache-Control', 'max-age=86400').sendFile('favicon.svg', WEB_DIST),
  );
  app.get('/*', appPage, (request, reply) => {
    const path = request.url.split('?')[0];
    if (isServerPath(path)) throw noRoute(request.method, path);
    return sendAppPage(reply);
  });
};
