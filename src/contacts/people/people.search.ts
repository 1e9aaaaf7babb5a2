import {
  type Expression,
  type ExpressionBuilder,
  type SelectQueryBuilder,
  sql,
  type SqlBool,
} from 'kysely';
import type { DB, DbOrTrx } from '../../platform/db/database.js';
import { containsText } from '../../platform/db/text-match.js';
import { normalizePhone } from './people.matching.js';

/** Characters a phone number may be written with: `q` made only of these also matches phones. */
const PHONE_LIKE = /^[\d\s()+.\-/]+$/;

/** A trigram index finds text of three characters or more. */
const TRIGRAM = 3;

/**
 * Above this many indexed matches a search term is common: a page in another order than id's
 * walks its sort order (a hundred matches come after a few thousand people at most), instead of
 * collecting and sorting every match. Below it, the matches are read from the index and sorted.
 */
export const COMMON_TERM_MATCHES = 10_000;
/**
 * Up to this many matches, the walk tests each person against the set of matches, read once
 * from the index (`q=john` sorted by name at 1M people, 20,000 matches: 5 ms instead of 25 to
 * read each person walked and look their emails up); beyond it the walk finds its page within a
 * few hundred people, sooner than the set could be read, and tests each person directly.
 */
const WIDE_TERM_MATCHES = 50_000;

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
  options: { perPerson?: boolean } = {},
): Expression<SqlBool> {
  // PostgreSQL (`perPerson`): `offset 0` keeps each lookup a test of the one person, never a
  // hashed subplan reading every email and phone of the account once per query (trigram.ts).
  /** One of the person's emails or phones contains `value`. */
  const lookup = (table: 'person_emails' | 'person_phones', column: string, value: string) => {
    const query = eb
      .selectFrom(table)
      .select(`${table}.person_id`)
      .where(`${table}.account_id`, '=', accountId)
      .whereRef(`${table}.person_id`, '=', 'people.id')
      .where(containsText(`${table}.${column}`, value));
    return eb.exists(options.perPerson ? query.offset(0) : query);
  };
  const alternatives: Expression<SqlBool>[] = [
    containsText('people.name', text),
    containsText('people.first_name', text),
    containsText('people.last_name', text),
    lookup('person_emails', 'email', text),
  ];
  const digits = phoneDigits(text);
  if (digits) alternatives.push(lookup('person_phones', 'normalized', digits));
  return eb.or(alternatives);
}

export function phoneDigits(text: string): string {
  return PHONE_LIKE.test(text) ? normalizePhone(text) : '';
}

export const long = (text: string) => [...text].length >= TRIGRAM;

/**
 * True when a term found in a person's search text (names on one line, emails on the next, the
 * phones' digits on the last, separated by spaces) is exactly the `q=` rule: a term with no white
 * space cannot span two of them, and one not written like a phone number is in them exactly when
 * a name or an email contains it.
 */
export const searchTextIsExact = (text: string) => !/\s/.test(text) && !phoneDigits(text);

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

/** A text search that no index helps: every person is tested on the exact conditions. */
export const exactOnly = (exact: Condition[]) => ({
  exact,
  exactAmongMatches: exact,
  listed: null,
  counted: null,
  countFrom: null,
  pageFrom: null,
  pageByIndexIfFew: null,
  size: null,
  amongMatches: null,
});

/**
 * True when an FTS5 match of `text` in {names emails} is exactly the `q=` rule (as for
 * PostgreSQL's stored search text, people.trigram.ts): no white space, so it cannot span two
 * fields; not written like a phone number; and ASCII, which the trigram tokenizer and SQLite's
 * `lower()`/`like` fold alike (the tokenizer folds other letters too, `lower()` does not).
 */
// eslint-disable-next-line no-control-regex
const ftsIsExact = (text: string) => searchTextIsExact(text) && /^[\x00-\x7f]*$/.test(text);

/**
 * SQLite: the text filters of a people list, index-backed (FTS5 trigram, migration 0140_b).
 * Returns the exact conditions every listed person must meet, plus, when the index can help:
 * - `listed`: a further condition for a page in another order (the person is among the index's
 *   matches): read from the index for a rare term, a filter on the walk of the sort order for a
 *   common one, none for a very common one (see WIDE_TERM_MATCHES);
 * - `countFrom`: the index's matches joined to their people, so counting reads the matches in
 *   turn, never the account;
 * - `pageFrom`: the same for a page sorted by id: FTS5 reads its matches in rowid order, so the
 *   page reads about a hundred of them, however common the term (`q=john` at 1M people: 0.7 ms
 *   instead of 6 walking the people);
 * - `exactAmongMatches`: the exact conditions a person read from these must still meet
 *   (a plain `q` term's match is the rule itself: see ftsIsExact).
 * PostgreSQL's counterpart is people.trigram.ts.
 */
export async function ftsSearch(
  db: DbOrTrx,
  accountId: number,
  filters: TextFilters,
  /** `sized`: count the matches (up to WIDE_TERM_MATCHES) even for a page in id order */
  { pageById = false, sized = false } = {},
) {
  const exact: Condition[] = [];
  const exactAmongMatches: Condition[] = [];
  const text = filters.q?.trim();
  if (text) {
    const condition: Condition = (eb) => matchesSearchText(eb, accountId, text);
    exact.push(condition);
    if (!(long(text) && ftsIsExact(text))) exactAmongMatches.push(condition);
  }
  for (const field of NAME_FIELDS) {
    const value = filters[field];
    if (!value) continue;
    const condition: Condition = () => containsText(NAME_COLUMNS[field], value);
    exact.push(condition);
    exactAmongMatches.push(condition);
  }
  if (exact.length === 0) return null;
  const match = ftsQuery(filters);
  if (!match) return exactOnly(exact);
  const matches = sql`select rowid from people_search where people_search match ${match}`;
  // Whether the term is common decides only how a page in another order than id's is read.
  const found =
    pageById && !sized
      ? WIDE_TERM_MATCHES
      : (
          await db
            .selectFrom(sql`(${matches} limit ${sql.lit(WIDE_TERM_MATCHES)})`.as('some'))
            .select((eb) => eb.fn.countAll<number>().as('found'))
            .executeTakeFirstOrThrow()
        ).found;
  // The index's matches joined to their people. When no column of the person is left to test, a
  // count looks each match up in people_account_id_stage (migration 0330), which holds the rest
  // (account, Trash); SQLite's planner took the table's rowid instead and read each whole row.
  const joined = (people: string) =>
    db
      .selectFrom(
        sql`people_search inner join ${sql.raw(people)} on people.id = people_search.rowid` as never,
      )
      .where(sql<SqlBool>`people_search match ${match}`) as unknown as PeopleSelect;
  const countFrom = joined(
    exactAmongMatches.length ? 'people' : 'people indexed by people_account_id_stage',
  );
  const pageFrom = joined('people');
  // The person is among the matches, read once; `+people.id` is never read from an index, so
  // the set only filters a walk of another index.
  const amongMatches: Condition = () => sql<SqlBool>`+people.id in (${matches})`;
  const listed: Condition | null =
    pageById || Number(found) >= WIDE_TERM_MATCHES
      ? null
      : Number(found) < COMMON_TERM_MATCHES
        ? () => sql<SqlBool>`people.id in (${matches})`
        : amongMatches;
  return {
    exact,
    exactAmongMatches,
    listed,
    counted: null,
    countFrom,
    pageFrom,
    pageByIndexIfFew: null,
    /** the matches, counted up to WIDE_TERM_MATCHES */
    size: Number(found),
    amongMatches,
  };
}
