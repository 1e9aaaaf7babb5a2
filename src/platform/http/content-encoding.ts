import { createGunzip, type Gunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';

/**
 * `Content-Encoding: gzip` bodies are decoded before parsing. The body limit applies to the decoded
 * bytes (Fastify counts what this stream yields), so a small gzip bomb is a 413 like a large body.
 * Any other encoding is a 415.
 */
export function registerContentEncoding(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (!encoding || encoding === 'identity') return done(null, payload);
    if (encoding !== 'gzip' && encoding !== 'x-gzip') {
      return done(
        new ApiError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          `Content-Encoding '${encoding}' is not supported: send the body as is or gzip-compressed`,
        ),
      );
    }
    const decoded: Gunzip & { receivedEncodedLength?: number } = createGunzip();
    decoded.receivedEncodedLength = 0;
    payload.on('data', (chunk: Buffer) => {
      decoded.receivedEncodedLength! += chunk.length;
    });
    payload.on('error', (err) => decoded.destroy(err));
    // Registered before Fastify's own listener: the client reads what was wrong.
    decoded.once('error', (err: Error & { statusCode?: number }) => {
      err.message = `Request body is not valid gzip: ${err.message}`;
      err.statusCode = 400;
    });
    done(null, payload.pipe(decoded));
  });
}
