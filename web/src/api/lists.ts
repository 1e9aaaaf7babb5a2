import { apiFetch } from './http';
import type { ListEnvelope } from './types';

export interface Page<T> {
  items: T[];
  /** Same-origin address of the following page, when there is one. */
  next: string | null;
  total: number;
}

type Envelope = ListEnvelope;

/** One page of a /v1 list: the records under `_metadata.collection` and the next page's address. */
export async function fetchPage<T>(
  address: string,
  headers?: Record<string, string>,
): Promise<Page<T>> {
  const { json } = await apiFetch(address, { headers });
  const envelope = json as Envelope;
  const items = (envelope[envelope._metadata.collection] ?? []) as T[];
  const link = envelope._metadata.nextLink;
  const next = link ? new URL(link, window.location.origin) : null;
  return {
    items,
    next: next ? `${next.pathname}${next.search}` : null,
    total: envelope._metadata.total,
  };
}

/** Every record of a short list (stages, pipelines, users): follows `next` to the end. */
export async function fetchAll<T>(
  address: string,
  cap = 2000,
  headers?: Record<string, string>,
): Promise<T[]> {
  const all: T[] = [];
  let page: string | null = address;
  while (page && all.length < cap) {
    const result: Page<T> = await fetchPage<T>(page, headers);
    all.push(...result.items);
    page = result.next;
  }
  return all;
}
