import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from './errors.js';

export const BODY_LIMIT = 1024 * 1024;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`Malformed JSON body: ${(err as Error).message}`);
  }
}

/** Form bodies are flat key=value pairs; repeated keys become arrays. */
function parseForm(text: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

/**
 * Real clients send JSON under the wrong content type (often form-encoded), and some send
 * real form bodies: both are accepted. Anything that is neither is refused with 415.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseAs = (kind: 'json' | 'form' | 'sniff') =>
    (_request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => {
      try {
        if (body.trim() === '') return done(null, undefined);
        if (kind === 'json') return done(null, parseJson(body));
        if (looksLikeJson(body)) return done(null, parseJson(body));
        if (kind === 'form') return done(null, parseForm(body));
        throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON (Content-Type: application/json)');
      } catch (err) {
        done(err as Error);
      }
    };
  const options = { parseAs: 'string' as const, bodyLimit: BODY_LIMIT };
  app.addContentTypeParser('application/json', options, parseAs('json'));
  app.addContentTypeParser(/^application\/[\w.+-]*\+json/, options, parseAs('json'));
  app.addContentTypeParser('application/x-www-form-urlencoded', options, parseAs('form'));
  app.addContentTypeParser('*', options, parseAs('sniff'));
}
