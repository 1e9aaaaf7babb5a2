import type { IncomingMessage } from 'node:http';

/** `https://host:port` at the start of an absolute-form request target (RFC 9112 3.2.2). */
const SCHEME_AND_AUTHORITY = /^https?:\/\/[^/?#]*/i;

/**
 * For Fastify's `rewriteUrl`: an absolute-form target (`GET https://host/v1/identity`, as proxies
 * send it) becomes its origin form (`/v1/identity`) before routing, so that the router, the
 * authentication hook, rate limits and logs all see the same path.
 */
export function originForm(request: IncomingMessage): string {
  const url = request.url ?? '/';
  if (url.charCodeAt(0) === 47 /* / */) return url;
  const authority = SCHEME_AND_AUTHORITY.exec(url);
  if (!authority) return url;
  const rest = url.slice(authority[0].length);
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}
