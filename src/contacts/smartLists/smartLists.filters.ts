import type { Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { ApiError, badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import { peopleSort } from '../people/people.list.js';
import type { PeopleListQuery } from '../people/people.schemas.js';
import { SmartListFilters } from './smartLists.schemas.js';
import { findVisibleSmartList, type SmartListRow } from './smartLists.repo.js';
import { parseTimestamp } from '../../platform/time.js';

export type Filters = Static<typeof SmartListFilters>;
type PeopleQuery = Static<typeof PeopleListQuery>;

/** Saved filters are small; this bounds what one list may store (the body limit alone is 1 MiB). */
export const MAX_FILTERS_CHARS = 10_000;

const TIME_FILTERS = Object.keys(SmartListFilters.properties).filter((key) =>
  /(After|Before)$/.test(key),
) as (keyof Filters)[];

/**
 * Checks what the schema cannot (dates, the sort field, size) so that a saved list never fails
 * when it is opened, and returns the filters as they are stored: JSON, booleans as booleans.
 */
export function filtersToStore(filters: Filters): string {
  const stored: Record<string, unknown> = Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined),
  );
  if (filters.includeTrash !== undefined) stored.includeTrash = toBool(filters.includeTrash);
  for (const key of TIME_FILTERS) {
    const value = filters[key];
    if (typeof value === 'string' && value !== '' && parseTimestamp(value) === null) {
      throw badRequest(`'filters.${key}' must be a date or ISO 8601 timestamp`, [
        { field: `filters.${key}`, message: 'must be a date or ISO 8601 timestamp' },
      ]);
    }
  }
  for (const key of ['priceAbove', 'priceBelow'] as const) {
    const value = stored[key];
    // JSON has no Infinity: "1e400" would be stored as null and the list could no longer be opened.
    if (value !== undefined && !Number.isFinite(Number(value))) {
      throw badRequest(`'filters.${key}' must be a finite number`, [
        { field: `filters.${key}`, message: 'must be a finite number' },
      ]);
    }
  }
  if (filters.sort) {
    try {
      peopleSort(filters.sort);
    } catch (err) {
      if (err instanceof ApiError)
        throw badRequest(`Invalid 'filters.sort': ${err.message}`, [
          { field: 'filters.sort', message: err.message },
        ]);
      throw err;
    }
  }
  const text = JSON.stringify(stored);
  if (text.length > MAX_FILTERS_CHARS)
    throw badRequest(`'filters' is too large (at most ${MAX_FILTERS_CHARS} characters as JSON)`, [
      { field: 'filters', message: 'too large' },
    ]);
  return text;
}

const storedFiltersCheck = TypeCompiler.Compile(SmartListFilters);

/** A list's saved filters, checked again: a stored list must never reach the people query malformed. */
function savedFilters(row: SmartListRow): Filters {
  let value: unknown;
  try {
    value = JSON.parse(row.filters);
  } catch {
    value = undefined;
  }
  if (!storedFiltersCheck.Check(value)) {
    throw conflict(
      `Smart list ${row.id} holds filters GET /v1/people no longer accepts; save new ones with PUT /v1/smartLists/${row.id}`,
    );
  }
  return value;
}

/**
 * GET /v1/people with `smartListId`: the list's saved filters, with the request's own filters
 * added (AND) and, for a filter given in both, the request's value. A list the caller cannot see
 * is 404, as for any record they cannot see; the people it returns are still only those the
 * caller may see, since the merged filters go through the same visibility-checked query.
 */
export async function withSmartList(
  db: DbOrTrx,
  auth: AuthUser,
  query: PeopleQuery,
): Promise<PeopleQuery> {
  if (query.smartListId === undefined) return query;
  const row = await findVisibleSmartList(db, auth, query.smartListId);
  if (!row) throw notFound(`Smart list ${query.smartListId}`);
  const given = Object.fromEntries(
    Object.entries(query).filter(([, value]) => value !== undefined),
  );
  return { ...savedFilters(row), ...given };
}
