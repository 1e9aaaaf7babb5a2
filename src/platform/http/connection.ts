import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How often Node looks for requests past their deadline (its default is 30 s, which would let a
 * slow client keep a socket for the timeout plus up to 30 s).
 */
export function connectionsCheckingInterval(requestTimeoutMs: number): number {
  return Math.max(250, Math.min(5_000, Math.floor(requestTimeoutMs / 4)));
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message:
      'The request did not arrive in time (headers and body must be sent within the timeout)',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    message: 'Request headers (including the URL) are too large: at most 16 KiB in all',
  },
};

/**
 * For Fastify's `clientErrorHandler`: errors Node's HTTP parser raises before there is a request
 * (malformed framing, oversized headers or URL, slow headers or body) answer in the API's error
 * shape, then the connection is closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const known = err.code ? CLIENT_ERRORS[err.code] : undefined;
  const status = known?.status ?? 400;
  const body = JSON.stringify({
    errorMessage: known?.message ?? 'Malformed HTTP request (framing, headers or Content-Length)',
    errorCode: known?.code ?? 'BAD_REQUEST',
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * An error answered before the body was read (wrong credentials on a large upload, say) would
 * otherwise leave Node reading and discarding the rest of the body on a kept-alive socket, for as
 * long as a slow client cares to trickle it. Closing the connection ends that at once.
 */
export function registerEarlyErrorClose(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && !request.raw.complete) reply.header('connection', 'close');
    done(null, payload);
  });
}
