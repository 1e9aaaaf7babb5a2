import type { FastifyInstance } from 'fastify';
import { DELEGATION_HEADER, grantFor } from '../platform/http/delegated-auth.js';
import type { McpCaller } from './caller.js';

/** A REST answer that is not a success: its errorMessage becomes the tool's error text. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface RestCall {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

/** The query string of the defined values. */
function queryString(query: RestCall['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Runs a REST route in this process as the caller: the route's schema, role gate, visibility,
 * rate limit, idempotency and webhook events all apply as to the same call over HTTPS.
 */
export async function callRest<T>(
  app: FastifyInstance,
  caller: McpCaller,
  call: RestCall,
): Promise<{ status: number; body: T }> {
  const { grant, revoke } = grantFor(caller.auth);
  try {
    const res = await app.inject({
      method: call.method,
      url: `${call.url}${queryString(call.query)}`,
      headers: {
        authorization: caller.authorization,
        [DELEGATION_HEADER]: grant,
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
    });
    const body: unknown = res.body ? JSON.parse(res.body) : null;
    if (res.statusCode >= 400) {
      const message = (body as { errorMessage?: string } | null)?.errorMessage;
      throw new RestError(res.statusCode, message ?? `The request failed (${res.statusCode})`);
    }
    return { status: res.statusCode, body: body as T };
  } finally {
    revoke();
  }
}
