import { HttpError } from 'react-admin';
import type { ErrorBody } from './types';

/**
 * The one way the app talks to the server: same-origin fetch with the session cookie (HttpOnly,
 * never visible here) and, on writes, the CSRF token from the session answer. The token lives only
 * in this module's memory; nothing is put in localStorage or sessionStorage.
 */
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** A failing answer's body: the API's error shape, though a proxy's page may lack it. */
export type ApiErrorBody = Partial<Pick<ErrorBody, 'errorMessage' | 'errors'>>;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function apiFetch(
  path: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: unknown; headers: Headers }> {
  const method = options.method ?? 'GET';
  // Extra headers (X-System, X-System-Key on the webhooks screen) are sent once, never kept.
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (WRITE_METHODS.has(method) && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = { errorMessage: text };
    }
  }
  if (!response.ok) throw toHttpError(response.status, json as ApiErrorBody | null);
  return { status: response.status, json, headers: response.headers };
}

/** react-admin shows `message`; `body.errors` as `{field: message}` marks the form's fields. */
function toHttpError(status: number, body: ApiErrorBody | null): HttpError {
  const message = body?.errorMessage ?? `The server answered ${status}`;
  const fieldErrors: Record<string, string> = {};
  for (const item of body?.errors ?? []) if (item.field) fieldErrors[item.field] = item.message;
  return new HttpError(message, status, { ...body, errors: fieldErrors });
}
