import {
  type Expression,
  type ExpressionBuilder,
  type SelectQueryBuilder,
  sql,
  type SqlBool,
} from 'kysely';
import type { DB, DbOrTrx } from '../db/database.js';
import { containsText } from '../db/text-match.js';
import { normalizePhone } from './people.matching.js';

/** Characters a phone number may be written with: `q` made only of these also matches phones. */
const PHONE_LIKE = /^[\d\s()+.\-/]+$/;

/** A trigram index finds text of three characters or more. */
const TRIGRAM = 3;

/**
 * Above this many indexed matches a search term is common: the page walks its sort order and
 * tests each person (a hundred matches come after a few thousand people at most), instead of
 * collecting and sorting every match. Below it, the matches are read from the index and sorted.
 */
export const COMMON_TERM_MATCHES = 10_000;

/** The name filters and the columns they search. */
export const NAME_FIELDS = ['name', 'firstName', 'lastName'] as const;
export const NAME_COLUMNS = {
  name: 'people.name',
  firstName: 'people.first_name',
  lastName: 'people.last_name',
} as const;

/** A condition on the people of a list. */
export type Condition = (eb: ExpressionBuilder<DB, 'people'>) => Expression<SqlBool>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PeopleSelect = SelectQueryBuilder<DB, 'people', any>;

/** The text filters of GET /v1/people: `q`, and substrings of name, firstName and lastName. */
export interface TextFilters {
  q?: string;
  name?: string;
  firstName?: string;
  lastName?: string;
}

/**
 * `?q=`: people whose name, first or last name, or an email contains the text (case-insensitive;
 * a prefix is a substring too), or, when the text is written like a phone number, one of whose
 * phones contains its digits ("(555) 010" finds 5550101000). This is the exact rule; the index
 * (see textSearch) only narrows down whom it is tested on.
 */
export function matchesSearchText(
  eb: ExpressionBuilder<DB, 'people'>,
  accountId: number,
  text: string,
): Expression<SqlBool> {
  const alternatives: Expression<SqlBool>[] = [
    containsText('people.name', text),
    containsText('people.first_name', text),
    containsText('people.last_name', text),
    eb.exists(
      eb
        .selectFrom('person_emails as pe')
        .select('pe.person_id')
        .where('pe.account_id', '=', accountId)
        .whereRef('pe.person_id', '=', 'people.id')
        .where(containsText('pe.email', text)),
    ),
  ];
  const digits = phoneDigits(text);
  if (digits) {
    alternatives.push(
      eb.exists(
        eb
          .selectFrom('person_phones as pp')
          .select('pp.person_id')
          .where('pp.account_id', '=', accountId)
          .whereRef('pp.person_id', '=', 'people.id')
          .where(containsText('pp.normalized', digits)),
      ),
    );
  }
  return eb.or(alternatives);
}

export function phoneDigits(text: string): string {
  return PHONE_LIKE.test(text) ? normalizePhone(text) : '';
}

export const long = (text: string) => [...text].length >= TRIGRAM;

/** An FTS5 phrase: the text taken literally (a trigram phrase matches it as a substring). */
const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** The FTS5 query (SQLite) for the filters, or null when none is long enough to use the index. */
function ftsQuery(filters: TextFilters): string | null {
  const terms: string[] = [];
  const text = filters.q?.trim();
  if (text && long(text)) {
    const digits = phoneDigits(text);
    if (!digits) terms.push(`({names emails} : ${phrase(text)})`);
    else if (long(digits))
      terms.push(`({names emails} : ${phrase(text)} OR phones : ${phrase(digits)})`);
  }
  for (const field of NAME_FIELDS) {
    const value = filters[field];
    if (value && long(value)) terms.push(`(names : ${phrase(value)})`);
  }
  return terms.length ? terms.join(' AND ') : null;
}

/**
 * SQLite: the text filters of a people list, index-backed (FTS5 trigram, migration 0140_b).
 * Returns the exact conditions every listed person must meet, plus, when the index can help:
 * - `listed`: a further condition for the page (the person is among the index's matches), only
 *   for a rare term (for a common one the page walks its sort order: a hundred matches come
 *   after a few thousand people at most);
 * - `countFrom`: a query that starts from the index's matches, so counting reads the matches in
 *   turn, never the account.
 * PostgreSQL's counterpart is people.trigram.ts.
 */
export async function ftsSearch(db: DbOrTrx, accountId: number, filters: TextFilters) {
  const exact: Condition[] = [];
  const text = filters.q?.trim();
  if (text) exact.push((eb) => matchesSearchText(eb, accountId, text));
  for (const field of NAME_FIELDS) {
    const value = filters[field];
    if (value) exact.push(() => containsText(NAME_COLUMNS[field], value));
  }
  if (exact.length === 0) return null;
  const match = ftsQuery(filters);
  if (!match) return { exact, listed: null, counted: null, countFrom: null };
  const matches = sql`select rowid from people_search where people_search match ${match}`;
  const { found } = await db
    .selectFrom(sql`(${matches} limit ${sql.lit(COMMON_TERM_MATCHES)})`.as('some'))
    .select((eb) => eb.fn.countAll<number>().as('found'))
    .executeTakeFirstOrThrow();
  const countFrom = db
    .selectFrom(sql`people_search`.as('people_search'))
    .innerJoin('people', (join) => join.on(sql<SqlBool>`people.id = people_search.rowid`))
    .where(sql<SqlBool>`people_search match ${match}`) as unknown as PeopleSelect;
  const listed: Condition | null =
    Number(found) < COMMON_TERM_MATCHES ? () => sql<SqlBool>`people.id in (${matches})` : null;
  return { exact, listed, counted: null, countFrom };
}
