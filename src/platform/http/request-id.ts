import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a caller's X-Request-Id may look like: short, printable, no spaces (it goes into logs). */
const ACCEPTABLE_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * For Fastify's `genReqId`: the caller's `X-Request-Id` when it is a sensible token (so one id
 * follows a request through a proxy, Hearth and the caller's own logs), otherwise a new UUID.
 */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
}

/** Every answer says which request it was (`X-Request-Id`); error bodies carry it too. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
