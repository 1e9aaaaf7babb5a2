import type { Static } from '@sinclair/typebox';
import type { DB, DbOrTrx } from '../../platform/db/database.js';
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest } from '../../platform/http/errors.js';
import { readSort, type SortKey } from '../../platform/http/pagination.js';
import { toBool } from '../../platform/http/schemas.js';
import { canSeePerson } from '../../access/visibility.js';
import { withDisplayNames, stageIdNamed } from './people.repo.js';
import type { PeopleListQuery } from './people.schemas.js';
import { isoTimestamp } from '../../platform/time.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { personDocument } from './people.document.js';
import { type Condition as SearchCondition, ftsSearch } from './people.search.js';
import { trigramSearch } from './people.trigram.js';
import { withinBudget } from '../../platform/db/query-budget.js';
import { type Op, type Purpose, rangeTerm, taggedWithAny } from './people.list-terms.js';
import { equalityFiltersOf } from './people.list-filters.js';
import { choosePlan, type Plan } from './people.list-plans.js';

type ListQuery = Static<typeof PeopleListQuery>;

const SORTABLE: Record<string, string> = {
  created: 'people.created_at',
  updated: 'people.updated_at',
  // NULLs sort first ascending on both databases; migration 0140 indexes these very expressions.
  lastActivity: "coalesce(people.last_activity, '')",
  name: 'people.name',
  firstName: 'people.first_name',
  lastName: 'people.last_name',
  price: 'coalesce(people.price, -1)',
};

export function peopleSort(sort: string | undefined): SortKey {
  return readSort(sort, SORTABLE, 'people.id');
}

function timestamp(raw: string, field: string): string {
  const stored = isoTimestamp(raw);
  if (stored === null) throw badRequest(`'${field}' must be a date or ISO 8601 timestamp`);
  return stored;
}

// The builder of a people query (possibly joined to the taggings it starts from, see below).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PeopleSelect = SelectQueryBuilder<DB, 'people', any>;

/**
 * The conditions every list starts with: the account, what the caller may see, and (for lists
 * answered to a client) the time budget, query-budget.ts; exports run to the end. The values may
 * be placeholders (people.list-page.ts).
 */
export function visibleWithin(
  dialect: DialectName,
  auth: AuthUser,
  deadline: number | string | undefined,
): ((query: PeopleSelect) => PeopleSelect)[] {
  const budget = deadline === undefined ? null : withinBudget(dialect, deadline);
  return [
    (query) => query.where('people.account_id', '=', auth.accountId),
    (query) => query.where((eb) => canSeePerson(eb, auth)),
    ...(budget ? [(query: PeopleSelect) => query.where(budget)] : []),
  ];
}

/**
 * The Trash stage's id when the list hides it: unless asked for by includeTrash, by a stage
 * filter, or by naming the ids (a webhook's uri is `/v1/people?id=…`, and a person moved to Trash
 * must still be fetchable there).
 */
export async function hiddenTrashId(
  db: DbOrTrx,
  accountId: number,
  q: ListQuery,
): Promise<number | null> {
  const includeTrash =
    toBool(q.includeTrash) ?? Boolean(q.stage || q.stageId !== undefined || q.id);
  return includeTrash ? null : stageIdNamed(db, accountId, 'Trash');
}

export const notInTrash =
  (trashId: number | string) =>
  (query: PeopleSelect): PeopleSelect =>
    query.where((eb) =>
      eb.or([eb('people.stage_id', 'is', null), eb('people.stage_id', '!=', trashId as number)]),
    );

/** The standard fields already as JSON (people.document.ts), beside the id. */
export const withDocuments = (dialect: DialectName, query: PeopleSelect) =>
  query.select((eb) => [eb.ref('people.id').as('id'), personDocument(dialect).as('document')]);

type Condition = (query: PeopleSelect, purpose: Purpose) => PeopleSelect;
type TextSearch =
  | NonNullable<Awaited<ReturnType<typeof ftsSearch>>>
  | NonNullable<Awaited<ReturnType<typeof trigramSearch>>>;
type Tagged = NonNullable<Awaited<ReturnType<typeof taggedWithAny>>>;
/** What the data said (the text search's matches, the tag's taggings) and the plan it chose. */
interface ChosenPlan {
  search: TextSearch | null;
  tagged: Tagged | null;
  plan: Plan;
}

const whereAll = (query: PeopleSelect, conditions: SearchCondition[]) =>
  conditions.reduce((q2, condition) => q2.where(condition), query);

/**
 * Reads the facts a plan is chosen from. SQLite, a text search and a tag: whichever has fewer
 * people is read, and the other tested (`name=son&tags=vip` at 1M people counted by walking
 * 150,000 matches of "son" for the 2 % tagged vip: 250 ms). The tag is counted as far as the
 * matches go.
 */
async function readPlan(
  db: DbOrTrx,
  dialect: DialectName,
  accountId: number,
  q: ListQuery,
  pageById: boolean,
): Promise<ChosenPlan> {
  const tags = (q.tags ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const search =
    dialect === 'postgres'
      ? await trigramSearch(db, accountId, q)
      : await ftsSearch(db, accountId, q, { pageById, sized: tags.length > 0 });
  const textSize = search?.amongMatches ? search.size : null;
  const tagged = tags.length
    ? await taggedWithAny(db, accountId, tags, textSize ?? undefined)
    : null;
  const plan = choosePlan({
    pageById,
    text: search && { size: textSize, pagesFrom: Boolean(search.pageFrom) },
    tag: tagged && { size: tagged.size, pagesFrom: Boolean(tagged.pageFrom) },
  });
  return { search, tagged, plan };
}

/**
 * The text search's conditions under a plan: people read from the index's matches, or tested
 * against them, need only the rest.
 */
function textConditions(search: TextSearch, { rowsFrom, tagFirst }: Plan, dialect: DialectName) {
  const amongMatches = (purpose: Purpose) =>
    tagFirst && (purpose === 'count' || rowsFrom === 'tag');
  const fromMatches = (purpose: Purpose) =>
    purpose === 'rows'
      ? rowsFrom === 'text' || (dialect === 'sqlite' && Boolean(search.listed))
      : Boolean(search.countFrom);
  const tested = (purpose: Purpose) =>
    amongMatches(purpose)
      ? [...search.exactAmongMatches, search.amongMatches!]
      : fromMatches(purpose)
        ? search.exactAmongMatches
        : search.exact;
  const conditions: Condition[] = [(query, purpose) => whereAll(query, tested(purpose))];
  const { listed, counted } = search;
  if (listed && rowsFrom !== 'text' && !(tagFirst && rowsFrom === 'tag'))
    conditions.push((query, purpose) => (purpose === 'rows' ? query.where(listed) : query));
  if (counted)
    conditions.push((query, purpose) => (purpose === 'count' ? query.where(counted) : query));
  return conditions;
}

/** The date and price ranges, each on an indexed column or expression (see rangeTerm). */
async function rangeConditions(
  db: DbOrTrx,
  dialect: DialectName,
  accountId: number,
  q: ListQuery,
): Promise<Condition[]> {
  const conditions: Condition[] = [];
  const range = async (column: RawBuilder<unknown>, bounds: [Op, unknown][]) => {
    if (!bounds.length) return;
    const term = await rangeTerm(db, dialect, accountId, column, bounds);
    conditions.push((query, purpose) =>
      bounds.reduce((q2, [op, value]) => q2.where(term(purpose, op, value)), query),
    );
  };
  for (const [after, before, column] of [
    ['createdAfter', 'createdBefore', sql`people.created_at`],
    ['updatedAfter', 'updatedBefore', sql`people.updated_at`],
  ] as const) {
    const bounds: [Op, string][] = [];
    if (q[after]) bounds.push(['>=', timestamp(q[after], after)]);
    if (q[before]) bounds.push(['<=', timestamp(q[before], before)]);
    await range(column, bounds);
  }
  // lastActivity and price are filtered on the expressions their indexes hold (migration 0140), so
  // a range is read from the index; people without a value never match a range.
  const activity: [Op, string][] = [];
  if (q.lastActivityAfter)
    activity.push(['>=', timestamp(q.lastActivityAfter, 'lastActivityAfter')]);
  if (q.lastActivityBefore)
    activity.push(['>', ''], ['<=', timestamp(q.lastActivityBefore, 'lastActivityBefore')]);
  await range(sql`coalesce(people.last_activity, '')`, activity);
  const { priceAbove, priceBelow } = q;
  if (priceAbove !== undefined && priceAbove <= -1)
    conditions.push((query) => query.where('people.price', '>=', priceAbove));
  if (priceBelow !== undefined)
    conditions.push((query) => query.where('people.price', 'is not', null));
  const prices: [Op, number][] = [];
  if (priceAbove !== undefined && priceAbove > -1) prices.push(['>=', priceAbove]);
  if (priceBelow !== undefined) prices.push(['<=', priceBelow]);
  await range(sql`coalesce(people.price, -1)`, prices);
  return conditions;
}

/**
 * The filtered, visibility-checked people behind GET /v1/people (`deadline`, epoch ms: see
 * query-budget.ts). Filters touch only `people` and
 * indexed lookups, so counting the matches never pays for the joins that add display names.
 */
export async function buildPeopleListQuery(
  db: DbOrTrx,
  dialect: DialectName,
  auth: AuthUser,
  q: ListQuery,
  options: {
    deadline?: number;
    /**
     * The caller reads a page sorted by id (GET /v1/people): it then starts from the text index's
     * matches read in id order (SQLite, ftsSearch) or from a tag's taggings, and orders and pages
     * by `idExpression`.
     */
    pageById?: boolean;
  } = {},
) {
  const accountId = auth.accountId;
  const visible: Condition[] = visibleWithin(dialect, auth, options.deadline);
  const chosen = await readPlan(db, dialect, accountId, q, Boolean(options.pageById));
  const { search, tagged, plan } = chosen;
  const text = search ? textConditions(search, plan, dialect) : [];
  const others: Condition[] = equalityFiltersOf(q).map(({ filter, value }) =>
    filter.where(db, accountId, value),
  );
  others.push(...(await rangeConditions(db, dialect, accountId, q)));
  const trashId = await hiddenTrashId(db, accountId, q);
  const conditions = [...visible, ...text, ...others];
  if (trashId !== null) conditions.push(notInTrash(trashId));
  return planQueries(db, dialect, chosen, conditions, !tagged && others.length === 0);
}

/** The page's rows, documents and total of the chosen plan under these conditions. */
function planQueries(
  db: DbOrTrx,
  dialect: DialectName,
  { search, tagged, plan }: ChosenPlan,
  conditions: Condition[],
  /** no filter beside the text search (and visibility) */
  textAlone: boolean,
) {
  const filter = (query: PeopleSelect, purpose: Purpose) =>
    conditions.reduce((q2, apply) => apply(q2, purpose), query);
  const people = db.selectFrom('people') as PeopleSelect;
  const rowsFromTag = plan.rowsFrom === 'tag';
  // A page sorted by id starts from the text index's matches, else from a tag's taggings.
  const rowsFrom =
    plan.rowsFrom === 'text' ? search!.pageFrom! : rowsFromTag ? tagged!.pageFrom! : people;
  const listed = filter(tagged && !rowsFromTag ? rowsFrom.where(tagged.listed) : rowsFrom, 'rows');
  // Counting starts from the most selective index at hand: the text index, else the tag's.
  const searchFrom = plan.tagFirst ? null : search?.countFrom;
  const countFrom = searchFrom
    ? tagged
      ? searchFrom.where(tagged.listed)
      : searchFrom
    : (tagged?.counted ?? people);
  // Only a total of the text search alone says how many people the index would hand the page: with
  // another filter (q=john&tags=vip: 404 of john's 20,000) it would read them all for a few.
  const few = textAlone ? search?.pageByIndexIfFew : null;
  const byIndex = few ? listed.where(few.condition) : null;
  const documentsOf = (query: PeopleSelect) => withDocuments(dialect, query);
  return {
    /**
     * PostgreSQL text search: the page read from the trigram index instead, for a count that comes
     * back exact and below `below` (people.trigram.ts)
     */
    ifFew:
      few && byIndex
        ? { below: few.below, rows: withDisplayNames(byIndex), documents: documentsOf(byIndex) }
        : null,
    /** what a page sorted by id is ordered by: the id of the index it starts from */
    idExpression: PAGE_ID_OF[plan.rowsFrom],
    filtered: filter(countFrom, 'count'),
    rows: withDisplayNames(listed),
    /** the standard fields already as JSON (people.document.ts): for pages without `fields` */
    documents: documentsOf(listed),
  };
}

/** What a page sorted by id is ordered by, by where the plan's rows start. */
const PAGE_ID_OF = {
  people: 'people.id',
  text: 'people_search.rowid',
  tag: 'pt.person_id',
} as const satisfies Record<Plan['rowsFrom'], string>;
