import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from './errors.js';

export const BODY_LIMIT = 1024 * 1024;

function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badRequest(`Malformed JSON body: ${(err as Error).message}`);
  }
  if ((text.includes('\\u0000') || text.includes('\0')) && containsNul(value)) throw nulError();
  return value;
}

/**
 * PostgreSQL cannot store U+0000 in text and SQLite would; refusing it here gives one answer on
 * both databases.
 */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => k.includes('\0') || containsNul(v));
  return false;
}

const nulError = () =>
  badRequest('Text in the request body must not contain NUL (\\u0000) characters');

/** Form bodies are flat key=value pairs; repeated keys become arrays. */
function parseForm(text: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const set = (key: string, value: unknown) =>
    // defineProperty, not assignment: a key named __proto__ must stay a plain (unknown) field.
    Object.defineProperty(result, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = Object.hasOwn(result, key) ? result[key] : undefined;
    if (existing === undefined) set(key, value);
    else if (Array.isArray(existing)) existing.push(value);
    else set(key, [existing, value]);
  }
  if (containsNul(result)) throw nulError();
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
  const parseAs =
    (kind: 'json' | 'form' | 'sniff') =>
    (
      _request: FastifyRequest,
      body: string,
      done: (err: Error | null, value?: unknown) => void,
    ) => {
      try {
        if (body.trim() === '') return done(null, undefined);
        if (kind === 'json') return done(null, parseJson(body));
        if (looksLikeJson(body)) return done(null, parseJson(body));
        if (kind === 'form') return done(null, parseForm(body));
        throw new ApiError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'Request body must be JSON (Content-Type: application/json)',
        );
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
