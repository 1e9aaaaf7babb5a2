import { badRequest } from './errors.js';

/**
 * The opaque `next` token of a list page: where the previous page stopped in its order, and the
 * total counted on the first page. base64url JSON, checked field by field when it comes back.
 */
export interface Cursor {
  /** sort name, so a cursor is never applied to a different order */
  s: string;
  /** last sort value seen (absent when sorting by id) */
  v?: string | number | null;
  /** last id seen */
  id: number;
  /** offset of the page the cursor leads to, reported in _metadata */
  o: number;
  /**
   * total counted on the first page: later pages report it instead of counting again, so deep
   * pages stay cheap and a client paging through sees one total
   */
  t?: number;
  /** 1 when t is a lower bound (see EXACT_TOTAL_LIMIT) */
  b?: 1;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** Ids are 32-bit on PostgreSQL (serial); a cursor beyond that range cannot come from us. */
const MAX_CURSOR_ID = 2_147_483_647;

/** A cursor is client input: only the shapes encodeCursor makes may reach a query. */
function isCursor(value: unknown): value is Cursor {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const c = value as Record<string, unknown>;
  const validValue =
    c.v === undefined ||
    c.v === null ||
    typeof c.v === 'string' ||
    (typeof c.v === 'number' && Number.isFinite(c.v));
  return (
    typeof c.s === 'string' &&
    Number.isInteger(c.id) &&
    (c.id as number) >= 0 &&
    (c.id as number) <= MAX_CURSOR_ID &&
    Number.isSafeInteger(c.o) &&
    (c.o as number) >= 0 &&
    (c.t === undefined || (Number.isSafeInteger(c.t) && (c.t as number) >= 0)) &&
    (c.b === undefined || c.b === 1) &&
    validValue
  );
}

export function decodeCursor(raw: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (isCursor(value)) return value;
  } catch {
    /* fall through */
  }
  throw badRequest("Invalid 'next' cursor; pass _metadata.next from the previous page unchanged");
}
