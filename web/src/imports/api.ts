/** The import wizard's requests: the preview of a file's head, and the upload. */
import { currentSession } from '../api/session';
import { type ValueChoices, valuesQuery } from './ValueMapping';
import type { ImportPreview } from '../api/types';

/** GET-like answer of POST /v1/imports/preview: how the server reads the file's columns. */
export type Preview = ImportPreview;

export const IDENTIFYING = ['name', 'firstName', 'lastName', 'email', 'phone'];

function csrfHeaders(): Record<string, string> {
  return { 'Content-Type': 'text/csv', 'X-CSRF-Token': currentSession()?.csrfToken ?? '' };
}

/** The server reads the head of the file (encoding, separator, header) as the import will. */
export async function previewOf(file: File): Promise<Preview> {
  const response = await fetch('/v1/imports/preview', {
    method: 'POST',
    body: file.slice(0, 64 * 1024),
    credentials: 'same-origin',
    headers: csrfHeaders(),
  });
  const body = (await response.json().catch(() => ({}))) as Preview & { errorMessage?: string };
  if (!response.ok) throw new Error(body.errorMessage ?? `The server answered ${response.status}`);
  return body;
}

/** How the file's rows are read: duplicates, the order of day and month in dates, remapped columns. */
export interface ImportChoices {
  onDuplicate: string;
  dateFormat: string;
  mapping: Record<string, string>;
  values: ValueChoices;
}

export async function upload(
  file: File,
  dryRun: boolean,
  { onDuplicate, dateFormat, mapping, values }: ImportChoices,
): Promise<number> {
  const query = new URLSearchParams({
    onDuplicate,
    dateFormat,
    ...(dryRun ? { dryRun: 'true' } : {}),
    ...(Object.keys(mapping).length ? { mapping: JSON.stringify(mapping) } : {}),
    ...(valuesQuery(values) ? { values: valuesQuery(values)! } : {}),
  });
  const response = await fetch(`/v1/imports?${query}`, {
    method: 'POST',
    body: file,
    credentials: 'same-origin',
    headers: csrfHeaders(),
  });
  const body = (await response.json().catch(() => ({}))) as { id?: number; errorMessage?: string };
  if (!response.ok || !body.id)
    throw new Error(body.errorMessage ?? `The server answered ${response.status}`);
  return body.id;
}

/** GET /v1/imports/:id as the wizard shows it. */
