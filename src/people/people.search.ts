import {
  type Expression,
  type ExpressionBuilder,
  type SelectQueryBuilder,
  sql,
  type SqlBool,
} from 'kysely';
import type { DB, DbOrTrx } from '../db/database.js';
import type { DialectName } from '../db/dialect.js';
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PeopleSelect = SelectQueryBuilder<DB, 'people', any>;
type Condition = (eb: ExpressionBuilder<DB, 'people'>) => Expression<SqlBool>;

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

function phoneDigits(text: string): string {
  return PHONE_LIKE.test(text) ? normalizePhone(text) : '';
}

const long = (text: string) => [...text].length >= TRIGRAM;

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
  for (const field of ['name', 'firstName', 'lastName'] as const) {
    const value = filters[field];
    if (value && long(value)) terms.push(`(names : ${phrase(value)})`);
  }
  return terms.length ? terms.join(' AND ') : null;
}

/** The stored, trigram-indexed search text of migration 0270 (PostgreSQL). */
const searchText = sql<string>`people.search_text`;

/** `searchText LIKE %text%`, which PostgreSQL can answer from its pg_trgm index. */
function searchTextContains(text: string) {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`${searchText} like ${pattern} escape '\\'`;
}

/**
 * The text filters of a people list, index-backed (migration 0140_b). Returns the exact
 * conditions every listed person must meet, plus, when the index can help:
 * - `listed`: a further condition for the page (the person is among the index's matches), on
 *   SQLite only for a rare term (for a common one the page walks its sort order); PostgreSQL's
 *   planner makes that choice itself from the index statistics;
 * - `countFrom` (SQLite): a query that starts from the index's matches, so counting reads the
 *   matches in turn, never the account.
 */
export async function textSearch(
  db: DbOrTrx,
  dialect: DialectName,
  accountId: number,
  filters: TextFilters,
) {
  const exact: Condition[] = [];
  const text = filters.q?.trim();
  if (text) exact.push((eb) => matchesSearchText(eb, accountId, text));
  const columns = {
    name: 'people.name',
    firstName: 'people.first_name',
    lastName: 'people.last_name',
  } as const;
  for (const field of ['name', 'firstName', 'lastName'] as const) {
    const value = filters[field];
    if (value) exact.push(() => containsText(columns[field], value));
  }
  if (exact.length === 0) return null;
  if (dialect === 'postgres') {
    const indexed: Condition[] = [];
    if (text && long(text)) {
      const digits = phoneDigits(text);
      indexed.push((eb) =>
        digits && long(digits)
          ? eb.or([searchTextContains(text), searchTextContains(digits)])
          : searchTextContains(text),
      );
    }
    for (const field of ['name', 'firstName', 'lastName'] as const) {
      const value = filters[field];
      if (value && long(value)) indexed.push(() => searchTextContains(value));
    }
    return { exact: [...indexed, ...exact], listed: null, countFrom: null };
  }
  const match = ftsQuery(filters);
  if (!match) return { exact, listed: null, countFrom: null };
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
  return { exact, listed, countFrom };
}
