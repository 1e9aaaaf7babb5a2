import { CompiledQuery, type ExpressionBuilder, sql, type SqlBool } from 'kysely';
import type { DB, DbOrTrx } from '../../platform/db/database.js';
import { containing } from '../../platform/db/text-match.js';
import { EXACT_TOTAL_LIMIT } from '../../platform/http/pagination.js';
import {
  type Condition,
  exactOnly,
  long,
  matchesSearchText,
  NAME_COLUMNS,
  NAME_FIELDS,
  phoneDigits,
  searchTextIsExact,
  type TextFilters,
} from './people.search.js';

/*
 * PostgreSQL: the text filters of a people list, on the stored search text of migration 0270 and
 * its pg_trgm index (SQLite's counterpart is ftsSearch in people.search.ts).
 *
 * Whether a page and its bounded total read the index or walk the account's people in order is
 * decided here, not by the planner, which multiplied the index condition's estimate with the exact
 * test's as if independent (docs/performance.md). The index condition's estimate is asked for
 * alone, and both ways costed with figures measured at 1M people: WALK_US a person walked and
 * tested; GIN_US a candidate the index hands over, HEAP_US one read and rechecked.
 *
 * The exact tests are written with strpos, which the planner cannot read from an index and
 * expects a third of the people to pass: a walk is then planned as a walk that stops at its
 * LIMIT (LIKE's default guess of 0.5% made it read every person through a bitmap to count 5,001).
 */
const WALK_US = 1;
const GIN_US = 0.26;
const HEAP_US = 8;
/** the largest page (limit 100) and the one more row that says whether another page follows */
const PAGE = 101;

type Access = 'index' | 'walk';

/**
 * Which way reads `wanted` of the `matches` among `people` for less: walking finds them after
 * `wanted` / share people; the index hands over every candidate, and the page must then read them
 * all to sort them (`sorted`), where a total stops reading once it has counted `wanted`.
 */
function cheaper(people: number, matches: number, wanted: number, sorted: boolean): Access {
  const walk = Math.min(people, (wanted * people) / Math.max(matches, 1)) * WALK_US;
  const read = sorted ? matches : Math.min(matches, wanted);
  const index = matches * GIN_US + read * HEAP_US;
  return index <= walk ? 'index' : 'walk';
}

/** The planner's estimate of the rows of a query (a parallel plan's Gather gives the total). */
async function estimatedRows(db: DbOrTrx, query: { compile(): CompiledQuery }): Promise<number> {
  const { sql: text, parameters } = query.compile();
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(
    CompiledQuery.raw(`explain (format json) ${text}`, [...parameters]),
  );
  return rows[0]['QUERY PLAN'][0].Plan['Plan Rows'];
}

/** The planner's estimates of the account's people, and of those the index condition keeps. */
async function estimates(db: DbOrTrx, accountId: number, index: Condition) {
  const everyone = db
    .selectFrom('people')
    .select(sql.lit(1).as('one'))
    .where('people.account_id', '=', accountId);
  return {
    people: await estimatedRows(db, everyone),
    matches: await estimatedRows(db, everyone.where(index)),
  };
}

/** The stored search text contains `text` (lower case), read from its pg_trgm index. */
const searchTextContains = (text: string) =>
  sql<SqlBool>`people.search_text like ${containing(text)} escape '\\'`;

/** `column` contains `text`, case-insensitively, tested person by person (see above). */
const holds = (column: string, text: string) =>
  sql<SqlBool>`strpos(lower(${sql.ref(column)}), ${text.toLowerCase()}) > 0`;

/**
 * What every person the `q=` rule keeps has: the search text holds their names and emails (in
 * lower case) and their phones' digits, so it contains the text, or the digits. Tested first, on
 * the person's own row, it spares the email and phone lookups of the exact rule for everyone
 * else: a phone search walking the people in order had made two index lookups per person.
 */
const inSearchText = (eb: ExpressionBuilder<DB, 'people'>, text: string, digits: string) =>
  digits
    ? eb.or([holds('people.search_text', text), holds('people.search_text', digits)])
    : holds('people.search_text', text);

/**
 * How the page and the bounded total of a text filter read people, from the planner's estimates
 * of the account's people and of those the index condition keeps.
 */
export function searchPlan(
  people: number,
  matches: number,
): { page: Access; count: Access; pageByIndexBelow: number } {
  return {
    page: cheaper(people, matches, PAGE, true),
    count: cheaper(people, matches, EXACT_TOTAL_LIMIT + 1, false),
    // Where reading the index and walking cost the same for a page: m (GIN + HEAP) equals
    // PAGE people / m WALK.
    pageByIndexBelow: Math.floor(Math.sqrt((PAGE * people * WALK_US) / (GIN_US + HEAP_US))),
  };
}

/**
 * The text filters' exact conditions (each person is tested on them, whichever way people are
 * read) and the index condition (null when no term is long enough for the trigram index).
 */
export function trigramConditions(
  accountId: number,
  filters: TextFilters,
): { exact: Condition[]; index: Condition | null } | null {
  const exact: Condition[] = [];
  const indexed: Condition[] = [];
  const text = filters.q?.trim();
  if (text) {
    const digits = phoneDigits(text);
    exact.push(
      long(text) && searchTextIsExact(text)
        ? () => holds('people.search_text', text)
        : (eb) =>
            eb.and([
              inSearchText(eb, text, digits),
              matchesSearchText(eb, accountId, text, { perPerson: true }),
            ]),
    );
    if (long(text))
      indexed.push((eb) =>
        digits && long(digits)
          ? eb.or([searchTextContains(text), searchTextContains(digits)])
          : searchTextContains(text),
      );
  }
  for (const field of NAME_FIELDS) {
    const value = filters[field];
    if (!value) continue;
    exact.push(() => holds(NAME_COLUMNS[field], value));
    if (long(value)) indexed.push(() => searchTextContains(value));
  }
  if (exact.length === 0) return null;
  const index: Condition | null = indexed.length
    ? (eb) => eb.and(indexed.map((condition) => condition(eb)))
    : null;
  return { exact, index };
}

/**
 * The exact conditions of the text filters, plus the index condition for the page (`listed`)
 * and for the bounded total (`counted`) when reading the index is the cheaper way.
 */
export async function trigramSearch(db: DbOrTrx, accountId: number, filters: TextFilters) {
  const conditions = trigramConditions(accountId, filters);
  if (!conditions) return null;
  const { exact, index } = conditions;
  if (!index) return exactOnly(exact);
  const { people, matches } = await estimates(db, accountId, index);
  const plan = searchPlan(people, matches);
  return {
    exact,
    exactAmongMatches: exact,
    listed: plan.page === 'index' ? index : null,
    counted: plan.count === 'index' ? index : null,
    countFrom: null,
    pageFrom: null,
    size: null,
    amongMatches: null,
    // The estimate can be far off (docs/performance.md: `q=212 55`). When the total is counted from the index anyway, it is counted first (one connection runs a list's queries
    // one after the other regardless), and an exact total below the break-even has the page
    // read the index too.
    pageByIndexIfFew:
      plan.page === 'walk' && plan.count === 'index'
        ? { condition: index, below: plan.pageByIndexBelow }
        : null,
  };
}
