import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from './errors.js';

export const BODY_LIMIT = 1024 * 1024;
/** Objects and arrays nested deeper than this are refused: no API body comes near it. */
export const MAX_JSON_DEPTH = 64;

/** The index of the quote closing the JSON string that opens at `start` (text.length if none). */
function endOfString(text: string, start: number): number {
  let i = start;
  for (;;) {
    i = text.indexOf('"', i + 1);
    if (i === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === 92 /* \\ */) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
}

/**
 * Whether `text` nests objects/arrays deeper than `max` (brackets inside strings do not count).
 * Checked before parsing: code that walks a parsed body recursively must not meet 100,000 levels.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) i = endOfString(text, i);
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

function parseJson(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw badRequest(
      `The JSON body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep`,
    );
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
