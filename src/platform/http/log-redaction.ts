import type { FastifyRequest } from 'fastify';

/** Query parameters that carry a secret (OAuth codes and tokens, keys, passwords). */
export const SECRET_QUERY_PARAMETERS = [
  'client_secret',
  'code',
  'refresh_token',
  'access_token',
  'api_key',
  'token',
  'password',
];

const SECRET_NAMES = new Set(SECRET_QUERY_PARAMETERS);

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/**
 * The URL with the value of every secret-bearing query parameter replaced by `[REDACTED]`.
 * Names are compared decoded, as the server reads them (`%63ode` is `code`).
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const hashStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_NAMES.has(decodedName(name)) ? `${name}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart + 1)}${redacted}${hashStart === -1 ? '' : url.slice(hashStart)}`;
}

/**
 * Fastify's request serializer (its `incoming request` and `request completed` lines), with
 * secrets removed from the URL.
 */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
