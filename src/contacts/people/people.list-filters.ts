import type { Static } from '@sinclair/typebox';
import type { SelectQueryBuilder } from 'kysely';
import type { DB, DbOrTrx } from '../../platform/db/database.js';
import { normalizePhone } from './people.matching.js';
import { cleanSource } from './people.input.js';
import type { PeopleListQuery } from './people.schemas.js';

type ListQuery = Static<typeof PeopleListQuery>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PeopleSelect = SelectQueryBuilder<DB, 'people', any>;
/** A filter's value as the query compares it (read and cleaned from the request). */
export type FilterValue = string | number;

/**
 * The filters of GET /v1/people that compare one value with an indexed column or lookup, in the
 * order they are applied. `read` cleans the request's value (undefined: not filtered); `where`
 * uses it only as a value, so a query compiled once with placeholders serves every value
 * (people.list-page.ts).
 */
export const EQUALITY_FILTERS: readonly {
  name: string;
  read(q: ListQuery): FilterValue | undefined;
  where(db: DbOrTrx, accountId: number, value: FilterValue): (query: PeopleSelect) => PeopleSelect;
}[] = [
  {
    name: 'email',
    read: (q) => (q.email ? q.email.trim().toLowerCase() : undefined),
    where: (db, accountId, email) => (query) =>
      query.where(
        'people.id',
        'in',
        db
          .selectFrom('person_emails')
          .select('person_id')
          .where('account_id', '=', accountId)
          .where('email', '=', email as string),
      ),
  },
  {
    name: 'phone',
    read: (q) => (q.phone ? normalizePhone(q.phone) : undefined),
    where: (db, accountId, phone) => (query) =>
      query.where(
        'people.id',
        'in',
        db
          .selectFrom('person_phones')
          .select('person_id')
          .where('account_id', '=', accountId)
          .where('normalized', '=', phone as string),
      ),
  },
  {
    name: 'stage',
    read: (q) => q.stage || undefined,
    where: (db, accountId, stage) => (query) =>
      query.where(
        'people.stage_id',
        'in',
        db
          .selectFrom('stages')
          .select('id')
          .where('account_id', '=', accountId)
          .where('name', '=', stage as string),
      ),
  },
  {
    name: 'stageId',
    read: (q) => q.stageId,
    where: (_db, _accountId, id) => (query) => query.where('people.stage_id', '=', id as number),
  },
  {
    name: 'source',
    read: (q) => (q.source ? cleanSource(q.source) : undefined),
    where: (_db, _accountId, source) => (query) =>
      query.where('people.source', '=', source as string),
  },
  {
    name: 'assignedTo',
    read: (q) => q.assignedTo || undefined,
    where: (db, accountId, name) => (query) =>
      query.where(
        'people.assigned_user_id',
        'in',
        db
          .selectFrom('users')
          .select('id')
          .where('account_id', '=', accountId)
          .where('name', '=', name as string),
      ),
  },
  {
    name: 'assignedUserId',
    read: (q) => q.assignedUserId,
    where: (_db, _accountId, id) => (query) =>
      query.where('people.assigned_user_id', '=', id as number),
  },
  {
    name: 'assignedLenderId',
    read: (q) => q.assignedLenderId,
    where: (_db, _accountId, id) => (query) =>
      query.where('people.assigned_lender_id', '=', id as number),
  },
  {
    name: 'assignedPondId',
    read: (q) => q.assignedPondId,
    where: (_db, _accountId, id) => (query) =>
      query.where('people.assigned_pond_id', '=', id as number),
  },
  {
    name: 'timeframeId',
    read: (q) => q.timeframeId,
    where: (_db, _accountId, id) => (query) =>
      query.where('people.timeframe_id', '=', id as number),
  },
];

/** The equality filters a request sets, with their cleaned values, in EQUALITY_FILTERS order. */
export function equalityFiltersOf(q: ListQuery) {
  return EQUALITY_FILTERS.flatMap((filter) => {
    const value = filter.read(q);
    return value === undefined ? [] : [{ filter, value }];
  });
}
