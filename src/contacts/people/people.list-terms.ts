import {
  type ExpressionBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
  type SqlBool,
} from 'kysely';
import type { DB, DbOrTrx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';

// Filters of GET /v1/people (people.list.ts) that choose how they are read from what the data
// holds: a tag by how many people carry it, a date or price range by how many people it spans.

/** Below this many taggings, a tag filter starts from the tag's people; above, it probes each person. */
const RARE_TAG_LIMIT = 2000;

/**
 * `tags=`: people with any of the tags. A rare tag is read from its index (the people holding
 * it, then sorted: few); a common one is probed person by person while walking the page's order
 * (materialising 400,000 ids to show 100 took 230 ms at 1M people, the probe well under 1).
 */
export async function taggedWithAny(
  db: DbOrTrx,
  accountId: number,
  tags: string[],
  /** how far to count the taggings (beside a text search, to compare the two: people.list.ts) */
  sizeUpTo = RARE_TAG_LIMIT,
) {
  const taggings = db
    .selectFrom('person_tags')
    .select('person_id')
    .where('account_id', '=', accountId)
    .where('tag', 'in', tags);
  const { found } = await db
    .selectFrom(taggings.limit(Math.max(sizeUpTo, RARE_TAG_LIMIT)).as('some'))
    .select((eb) => eb.fn.countAll<number>().as('found'))
    .executeTakeFirstOrThrow();
  const fromTheTag = (eb: ExpressionBuilder<DB, 'people'>) => eb('people.id', 'in', taggings);
  // Counting starts from the tag's index either way, streaming: the people of each tagging in
  // turn, until EXACT_TOTAL_LIMIT are found (`id IN (…)` would first collect every tagging).
  let counted = db
    .selectFrom('person_tags as pt')
    .innerJoin('people', 'people.id', 'pt.person_id')
    .where('pt.account_id', '=', accountId)
    .where('pt.tag', 'in', tags) as unknown as SelectQueryBuilder<DB, 'people', object>;
  // With several tags a person may be reached once per tag.
  if (tags.length > 1) counted = counted.distinct();
  // A page sorted by id, for one tag, reads the tag's index in person-id order: about a hundred
  // taggings, however common or rare the tag (`tags=vip`, 2 % of 1M people, walked 5,000 people
  // to find a page).
  const pageFrom = tags.length === 1 ? counted : null;
  const size = Number(found);
  if (size < RARE_TAG_LIMIT) return { listed: fromTheTag, counted, pageFrom, size };
  const probed = (eb: ExpressionBuilder<DB, 'people'>) =>
    eb.exists(
      eb
        .selectFrom('person_tags as pt')
        .select('pt.person_id')
        .where('pt.account_id', '=', accountId)
        .where('pt.tag', 'in', tags)
        .whereRef('pt.person_id', '=', 'people.id'),
    );
  return { listed: probed, counted, pageFrom, size };
}

export type Op = '>=' | '<=' | '>';
export type Purpose = 'rows' | 'count';

/** Below this many matches a range filter reads its index and sorts them; above, see rangeTerm. */
const NARROW_RANGE_LIMIT = 5000;

/**
 * The expression a range filter compares, for the page and for the count. Counting reads the
 * range's own index. For the page, PostgreSQL's planner knows from its histograms whether to read
 * the range and sort it or to walk the sort order's index and test each person; SQLite's does not
 * (it guesses a quarter of the rows): it sorted a wide range to show 100 people, and walked every
 * person in id order to find the few of a narrow one. So on SQLite the range's size is probed
 * first (at most NARROW_RANGE_LIMIT index entries): a narrow range is marked likely to be tiny
 * (`likelihood(…, 0.001)`) and read from its index; a wide one is written `+expr`, which SQLite
 * never reads from an index, so the page walks its sort order.
 */
export async function rangeTerm(
  db: DbOrTrx,
  dialect: DialectName,
  accountId: number,
  column: RawBuilder<unknown>,
  bounds: [Op, unknown][],
): Promise<(purpose: Purpose, op: Op, value: unknown) => RawBuilder<SqlBool>> {
  const compare = (expression: RawBuilder<unknown>, op: Op, value: unknown) =>
    sql<SqlBool>`${expression} ${sql.raw(op)} ${value}`;
  if (dialect !== 'sqlite') return (_purpose, op, value) => compare(column, op, value);
  const inRange = bounds.reduce(
    (query, [op, value]) => query.where(compare(column, op, value)),
    db.selectFrom('people').select(sql.lit(1).as('one')).where('account_id', '=', accountId),
  );
  const { found } = await db
    .selectFrom(inRange.limit(NARROW_RANGE_LIMIT).as('some'))
    .select((eb) => eb.fn.countAll<number>().as('found'))
    .executeTakeFirstOrThrow();
  if (Number(found) < NARROW_RANGE_LIMIT)
    return (_purpose, op, value) => sql<SqlBool>`likelihood(${compare(column, op, value)}, 0.001)`;
  return (purpose, op, value) => compare(purpose === 'rows' ? sql`+${column}` : column, op, value);
}
