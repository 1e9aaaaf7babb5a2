import { type Static, Type } from '@sinclair/typebox';
import { sql, type SelectQueryBuilder } from 'kysely';
import { badRequest } from './errors.js';
import { type Cursor, decodeCursor, encodeCursor } from './cursor.js';
import type { DbOrTrx } from '../db/database.js';
import { countRows } from '../db/count-cache.js';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 10;
export const MAX_OFFSET = 2000;
/**
 * Lists that can grow large (people) count their matches exactly up to this many; beyond it the
 * count would read every match, so `total` says "at least this many" (totalIsLowerBound).
 */
export const EXACT_TOTAL_LIMIT = 5_000;

/** Query arguments every list accepts. */
export const PageQuery = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: `Page size; default ${DEFAULT_LIMIT}, values above ${MAX_LIMIT} count as ${MAX_LIMIT}`,
    }),
  ),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: `Records to skip; at most ${MAX_OFFSET} (use next beyond)`,
    }),
  ),
  next: Type.Optional(
    Type.String({ description: 'Opaque cursor from _metadata.next; offset is ignored with it' }),
  ),
  id: Type.Optional(
    Type.String({
      description: 'Comma-separated ids: only these records (webhook `uri` addresses use it)',
    }),
  ),
};

export const MAX_ID_LIST = 100;

/** Parses an `id` filter: a comma-separated list of at most 100 ids. */
export function readIdList(raw: string, field = 'id'): number[] {
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0 || ids.length > MAX_ID_LIST || ids.some((s) => !/^\d{1,15}$/.test(s))) {
    throw badRequest(
      `Invalid query: '${field}' must be a comma-separated list of ids (at most ${MAX_ID_LIST})`,
      [{ field, message: 'invalid id list' }],
    );
  }
  return ids.map(Number);
}

export const PageMetadata = Type.Object({
  collection: Type.String(),
  offset: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer({
    description:
      'Records matching the filters; on pages reached with `next`, the total counted when the listing began. ' +
      `People and email marketing events are counted exactly up to ${EXACT_TOTAL_LIMIT.toLocaleString('en-US')}; when more match, ` +
      `total is ${EXACT_TOTAL_LIMIT.toLocaleString('en-US')} and totalIsLowerBound is true`,
  }),
  totalIsLowerBound: Type.Optional(
    Type.Boolean({
      description: `Present (true) when more records match than were counted: total is a lower bound ("${EXACT_TOTAL_LIMIT.toLocaleString('en-US')}+")`,
    }),
  ),
  next: Type.Optional(Type.String()),
  nextLink: Type.Optional(Type.String()),
});

/** The list envelope: `_metadata` plus one array under the collection's name. */
export function ListEnvelope<
  K extends string,
  T extends ReturnType<typeof Type.Object> | ReturnType<typeof Type.Any>,
>(collection: K, item: T) {
  return Type.Object({ _metadata: PageMetadata, [collection]: Type.Array(item) } as {
    _metadata: typeof PageMetadata;
  } & Record<K, ReturnType<typeof Type.Array<T>>>);
}

export type Metadata = Static<typeof PageMetadata>;

/** A sortable column: `expression` is SQL over the query's tables, `name` is what clients send. */
export interface SortKey {
  name: string;
  expression: string;
  descending: boolean;
}

export interface PageRequest {
  limit: number;
  offset: number;
  cursor: Cursor | null;
}

export function readPage(query: { limit?: number; offset?: number; next?: string }): PageRequest {
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  if (query.next) {
    const cursor = decodeCursor(query.next);
    return { limit, offset: cursor.o, cursor };
  }
  const offset = query.offset ?? 0;
  if (offset > MAX_OFFSET) throw badRequest("Deep pagination disabled, use 'nextLink' url");
  return { limit, offset, cursor: null };
}

/**
 * Parses `sort` (a field name, `-field` for descending) against the sortable columns of a list.
 * The default order is id descending (newest first).
 */
export function readSort(
  sort: string | undefined,
  columns: Record<string, string>,
  idExpression: string,
): SortKey {
  if (!sort) return { name: '-id', expression: idExpression, descending: true };
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  if (field === 'id') return { name: sort, expression: idExpression, descending };
  // Own keys only: `sort=constructor` must not find Object.prototype's members.
  const expression = Object.hasOwn(columns, field) ? columns[field] : undefined;
  if (typeof expression !== 'string') {
    throw badRequest(
      `Cannot sort by '${field}'; sortable fields: id, ${Object.keys(columns).join(', ')}`,
    );
  }
  return { name: sort, expression, descending };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>;

export interface Page<Row> {
  rows: Row[];
  metadata: Metadata;
}

interface PageQueryOptions {
  query: AnySelect;
  page: PageRequest;
  sort: SortKey;
  idExpression: string;
  /** the same filters without the joins that only add display columns: counted instead of `query` */
  countQuery?: AnySelect;
  /** ids of an `id=` filter */
  ids?: number[] | null;
  /** given for lists that can grow large (people): counts stop at EXACT_TOTAL_LIMIT */
  db?: DbOrTrx;
  /**
   * Another way to read the same rows, better when they are few: the count runs first, and an
   * exact total below `below` has the page read `query` instead (people.trigram.ts)
   */
  ifFew?: { query: AnySelect; below: number } | null;
}

/**
 * The two queries behind a page: its rows (one more than the page, to know whether another
 * follows) and the count of all matches. A cursor continues after the last (sort value, id) seen,
 * written as a row-value comparison so that both databases seek straight to it in the index of
 * the sort (people: migration 0140) instead of walking the rows before it.
 */
export function pageQueries(options: PageQueryOptions) {
  const { page, sort, idExpression, ids } = options;
  const query = ids ? options.query.where(sql.raw(idExpression), 'in', ids) : options.query;
  const filtered = options.countQuery ?? options.query;
  const counted = ids ? filtered.where(sql.raw(idExpression), 'in', ids) : filtered;
  const byId = sort.expression === idExpression;
  const direction = sort.descending ? 'desc' : 'asc';
  const op = sort.descending ? '<' : '>';
  let rowsQuery = query;
  if (page.cursor) {
    if (page.cursor.s !== sort.name)
      throw badRequest("The 'next' cursor was made for a different sort order");
    const { v, id } = page.cursor;
    rowsQuery = byId
      ? rowsQuery.where(sql.raw(idExpression), op, id)
      : rowsQuery.where(
          sql<boolean>`(${sql.raw(sort.expression)}, ${sql.raw(idExpression)}) ${sql.raw(op)} (${v}, ${id})`,
        );
  }
  rowsQuery = rowsQuery.orderBy(sql.raw(sort.expression), direction);
  if (!byId)
    rowsQuery = rowsQuery
      .select(sql.raw(sort.expression).as('_sort_value'))
      .orderBy(sql.raw(idExpression), direction);
  rowsQuery = rowsQuery.limit(page.limit + 1);
  if (!page.cursor && page.offset > 0) rowsQuery = rowsQuery.offset(page.offset);
  const matches = counted.clearSelect().clearOrderBy();
  const countQuery = options.db
    ? options.db
        .selectFrom(
          matches
            .select(sql.raw(idExpression).as('one'))
            .limit(EXACT_TOTAL_LIMIT + 1)
            .as('matched'),
        )
        .select(sql<number>`count(*)`.as('total'))
    : matches.select(sql<number>`count(*)`.as('total'));
  return { rowsQuery, countQuery };
}

/**
 * Where a page was asked for: its address (nextLink repeats it) and its parsed query (`?id=`).
 * A Fastify request is one; an MCP tool names the REST address it stands for.
 */
export interface ListRequest {
  url: string;
  query: unknown;
}

/** A ListRequest for `path` with these query values (the undefined ones left out). */
export function listRequest(path: string, query: Record<string, unknown>): ListRequest {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return { url: search ? `${path}?${search}` : path, query };
}

/**
 * Runs a filtered query one page at a time. Keyset cursors make deep pages cheap and stay correct
 * while records are inserted or deleted between pages: the cursor names the last (sort value, id)
 * seen, so no record that existed throughout is skipped or repeated.
 */
export async function paginate<Row extends { id: number }>(
  request: ListRequest,
  options: Omit<PageQueryOptions, 'ids'> & { collection: string; publicUrl: string },
): Promise<Page<Row>> {
  const { page } = options;
  const ids = requestedIds(request);
  const { rowsQuery, countQuery } = pageQueries({ ...options, ids });
  const known = page.cursor?.t;
  const counting =
    known !== undefined
      ? known
      : options.db
        ? countRows(options.db, countQuery)
        : countQuery.executeTakeFirst().then((row) => row?.total);
  const { ifFew } = options;
  const [found, total] = ifFew
    ? await Promise.resolve(counting).then(async (total) => {
        // Below EXACT_TOTAL_LIMIT, so a total (counted, or a cursor's) there is exact.
        const rows =
          Number(total ?? 0) < ifFew.below
            ? pageQueries({ ...options, ids, query: ifFew.query }).rowsQuery
            : rowsQuery;
        return [page.limit === 0 ? [] : await rows.execute(), total] as const;
      })
    : await Promise.all([page.limit === 0 ? Promise.resolve([]) : rowsQuery.execute(), counting]);
  return pageOf(request, options, found as Row[], Number(total ?? 0));
}

/** Every list answers ?id=1,2 (webhook `uri` addresses point at it): the ids, or null. */
export function requestedIds(request: ListRequest): number[] | null {
  const idFilter = (request.query as { id?: unknown } | undefined)?.id;
  return typeof idFilter === 'string' ? readIdList(idFilter) : null;
}

/** A page from the rows read (one more than the page when another follows) and the total. */
export function pageOf<Row extends { id: number }>(
  request: ListRequest,
  options: Pick<PageQueryOptions, 'page' | 'sort' | 'idExpression' | 'db'> & {
    collection: string;
    publicUrl: string;
  },
  found: Row[],
  counted: number,
): Page<Row> {
  const { page, sort, idExpression } = options;
  const byId = sort.expression === idExpression;
  const rows = found.slice(0, page.limit);
  const lowerBound = page.cursor
    ? page.cursor.b === 1
    : Boolean(options.db) && counted > EXACT_TOTAL_LIMIT;
  const metadata: Metadata = {
    collection: options.collection,
    offset: page.offset,
    limit: page.limit,
    total: Math.min(counted, lowerBound ? EXACT_TOTAL_LIMIT : counted),
  };
  if (lowerBound) metadata.totalIsLowerBound = true;
  if (found.length > page.limit && rows.length > 0) {
    const last = rows[rows.length - 1];
    const cursor: Cursor = {
      s: sort.name,
      id: last.id,
      o: page.offset + rows.length,
      t: metadata.total,
    };
    if (lowerBound) cursor.b = 1;
    if (!byId) cursor.v = (last as unknown as { _sort_value: string | number | null })._sort_value;
    metadata.next = encodeCursor(cursor);
    metadata.nextLink = nextLink(request, options.publicUrl, metadata.next);
  }
  return { rows, metadata };
}

/** A list envelope around items that are already JSON text (see people.document.ts). */
export function envelopeJson(collection: string, metadata: Metadata, documents: string[]): string {
  return `{"_metadata":${JSON.stringify(metadata)},${JSON.stringify(collection)}:[${documents.join(',')}]}`;
}

function nextLink(request: ListRequest, publicUrl: string, next: string): string {
  const url = new URL(request.url, 'http://placeholder');
  url.searchParams.delete('offset');
  url.searchParams.set('next', next);
  return `${publicUrl}${url.pathname}${url.search}`;
}
