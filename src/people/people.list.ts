import type { Static } from '@sinclair/typebox';
import type { DB, DbOrTrx } from '../db/database.js';
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { AuthUser } from '../http/auth.js';
import { badRequest } from '../http/errors.js';
import { readSort, type SortKey } from '../http/pagination.js';
import { toBool } from '../http/schemas.js';
import { canSeePerson } from '../access/visibility.js';
import { normalizePhone } from './people.matching.js';
import { withDisplayNames, stageIdNamed } from './people.repo.js';
import type { PeopleListQuery } from './people.schemas.js';
import { cleanSource } from './people.input.js';
import { isoTimestamp } from '../time.js';
import type { DialectName } from '../db/dialect.js';
import { personDocument } from './people.document.js';
import { ftsSearch } from './people.search.js';
import { trigramSearch } from './people.trigram.js';
import { withinBudget } from '../db/query-budget.js';
import { type Op, type Purpose, rangeTerm, taggedWithAny } from './people.list-terms.js';

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
  const conditions: ((query: PeopleSelect, purpose: Purpose) => PeopleSelect)[] = [
    (query) => query.where('people.account_id', '=', accountId),
    (query) => query.where((eb) => canSeePerson(eb, auth)),
  ];
  const narrow = (condition: (query: PeopleSelect, purpose: Purpose) => PeopleSelect) =>
    conditions.push(condition);
  // Lists answered to a client stop at their time budget (query-budget.ts); exports run to the end.
  const budget = options.deadline === undefined ? null : withinBudget(dialect, options.deadline);
  if (budget) narrow((query) => query.where(budget));
  /** A range filter on an indexed column or expression (see rangeTerm). */
  const range = async (column: RawBuilder<unknown>, bounds: [Op, unknown][]) => {
    const term = await rangeTerm(db, dialect, accountId, column, bounds);
    narrow((query, purpose) =>
      bounds.reduce((q2, [op, value]) => q2.where(term(purpose, op, value)), query),
    );
  };
  const tags = (q.tags ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const search =
    dialect === 'postgres'
      ? await trigramSearch(db, accountId, q)
      : await ftsSearch(db, accountId, q, { pageById: options.pageById, sized: tags.length > 0 });
  // SQLite, a text search and a tag: whichever has fewer people is read, and the other tested
  // (`name=son&tags=vip` at 1M people counted by walking 150,000 matches of "son" for the 2 %
  // tagged vip: 250 ms). The tag is counted as far as the matches go.
  const textSize = search?.amongMatches ? search.size : null;
  const tagged = tags.length
    ? await taggedWithAny(db, accountId, tags, textSize ?? undefined)
    : null;
  const tagFirst = textSize !== null && tagged !== null && tagged.size < textSize;
  const rowsFromMatches = Boolean(options.pageById && search?.pageFrom && !tagFirst);
  const rowsFromTag = !rowsFromMatches && Boolean(options.pageById && tagged?.pageFrom);
  if (search) {
    // People read from the index's matches, or tested against them, need only the rest.
    const amongMatches = (purpose: Purpose) => tagFirst && (purpose === 'count' || rowsFromTag);
    const fromMatches = (purpose: Purpose) =>
      purpose === 'rows'
        ? rowsFromMatches || (dialect === 'sqlite' && Boolean(search.listed))
        : Boolean(search.countFrom);
    const textConditions = (purpose: Purpose) =>
      amongMatches(purpose)
        ? [...search.exactAmongMatches, search.amongMatches!]
        : fromMatches(purpose)
          ? search.exactAmongMatches
          : search.exact;
    narrow((query, purpose) =>
      textConditions(purpose).reduce((q2, condition) => q2.where(condition), query),
    );
  }
  const searchListed = search?.listed;
  if (searchListed && !rowsFromMatches && !(tagFirst && rowsFromTag))
    narrow((query, purpose) => (purpose === 'rows' ? query.where(searchListed) : query));
  const searchCounted = search?.counted;
  if (searchCounted)
    narrow((query, purpose) => (purpose === 'count' ? query.where(searchCounted) : query));
  const narrowedByText = conditions.length;
  if (q.email) {
    const email = q.email.trim().toLowerCase();
    narrow((query) =>
      query.where(
        'people.id',
        'in',
        db
          .selectFrom('person_emails')
          .select('person_id')
          .where('account_id', '=', accountId)
          .where('email', '=', email),
      ),
    );
  }
  if (q.phone) {
    const phone = normalizePhone(q.phone);
    narrow((query) =>
      query.where(
        'people.id',
        'in',
        db
          .selectFrom('person_phones')
          .select('person_id')
          .where('account_id', '=', accountId)
          .where('normalized', '=', phone),
      ),
    );
  }
  if (q.stage) {
    const stage = q.stage;
    narrow((query) =>
      query.where(
        'people.stage_id',
        'in',
        db
          .selectFrom('stages')
          .select('id')
          .where('account_id', '=', accountId)
          .where('name', '=', stage),
      ),
    );
  }
  const { stageId, assignedUserId, assignedLenderId, assignedTo } = q;
  if (stageId !== undefined) narrow((query) => query.where('people.stage_id', '=', stageId));
  if (q.source) {
    const source = cleanSource(q.source);
    narrow((query) => query.where('people.source', '=', source));
  }
  if (assignedTo)
    narrow((query) =>
      query.where(
        'people.assigned_user_id',
        'in',
        db
          .selectFrom('users')
          .select('id')
          .where('account_id', '=', accountId)
          .where('name', '=', assignedTo),
      ),
    );
  if (assignedUserId !== undefined)
    narrow((query) => query.where('people.assigned_user_id', '=', assignedUserId));
  if (assignedLenderId !== undefined)
    narrow((query) => query.where('people.assigned_lender_id', '=', assignedLenderId));
  const { assignedPondId } = q;
  if (assignedPondId !== undefined)
    narrow((query) => query.where('people.assigned_pond_id', '=', assignedPondId));
  const { timeframeId } = q;
  if (timeframeId !== undefined)
    narrow((query) => query.where('people.timeframe_id', '=', timeframeId));
  for (const [after, before, column] of [
    ['createdAfter', 'createdBefore', sql`people.created_at`],
    ['updatedAfter', 'updatedBefore', sql`people.updated_at`],
  ] as const) {
    const bounds: [Op, string][] = [];
    if (q[after]) bounds.push(['>=', timestamp(q[after], after)]);
    if (q[before]) bounds.push(['<=', timestamp(q[before], before)]);
    if (bounds.length) await range(column, bounds);
  }
  // lastActivity and price are filtered on the expressions their indexes hold (migration 0140), so
  // a range is read from the index; people without a value never match a range.
  const activity: [Op, string][] = [];
  if (q.lastActivityAfter)
    activity.push(['>=', timestamp(q.lastActivityAfter, 'lastActivityAfter')]);
  if (q.lastActivityBefore)
    activity.push(['>', ''], ['<=', timestamp(q.lastActivityBefore, 'lastActivityBefore')]);
  if (activity.length) await range(sql`coalesce(people.last_activity, '')`, activity);
  const { priceAbove, priceBelow } = q;
  if (priceAbove !== undefined && priceAbove <= -1)
    narrow((query) => query.where('people.price', '>=', priceAbove));
  if (priceBelow !== undefined) narrow((query) => query.where('people.price', 'is not', null));
  const prices: [Op, number][] = [];
  if (priceAbove !== undefined && priceAbove > -1) prices.push(['>=', priceAbove]);
  if (priceBelow !== undefined) prices.push(['<=', priceBelow]);
  if (prices.length) await range(sql`coalesce(people.price, -1)`, prices);
  const textAlone = !tagged && conditions.length === narrowedByText;
  // Trash is hidden unless asked for: by includeTrash, by a stage filter, or by naming the ids
  // (a webhook's uri is `/v1/people?id=…`, and a person moved to Trash must still be fetchable there).
  const includeTrash =
    toBool(q.includeTrash) ?? Boolean(q.stage || q.stageId !== undefined || q.id);
  const trashId = includeTrash ? null : await stageIdNamed(db, accountId, 'Trash');
  if (trashId !== null)
    narrow((query) =>
      query.where((eb) =>
        eb.or([eb('people.stage_id', 'is', null), eb('people.stage_id', '!=', trashId)]),
      ),
    );
  const filter = (query: PeopleSelect, purpose: Purpose) =>
    conditions.reduce((q2, apply) => apply(q2, purpose), query);
  const people = db.selectFrom('people') as PeopleSelect;
  // A page sorted by id starts from the text index's matches, else from a tag's taggings.
  const rowsFrom = rowsFromMatches ? search!.pageFrom! : rowsFromTag ? tagged!.pageFrom! : people;
  const listed = filter(tagged && !rowsFromTag ? rowsFrom.where(tagged.listed) : rowsFrom, 'rows');
  // Counting starts from the most selective index at hand: the text index, else the tag's.
  const searchFrom = tagFirst ? null : search?.countFrom;
  const countFrom = searchFrom
    ? tagged
      ? searchFrom.where(tagged.listed)
      : searchFrom
    : (tagged?.counted ?? people);
  // Only a total of the text search alone says how many people the index would hand the page: with
  // another filter (q=john&tags=vip: 404 of john's 20,000) it would read them all for a few.
  const few = textAlone ? search?.pageByIndexIfFew : null;
  const byIndex = few ? listed.where(few.condition) : null;
  const documentsOf = (query: PeopleSelect) =>
    query.select((eb) => [eb.ref('people.id').as('id'), personDocument(dialect).as('document')]);
  return {
    /**
     * PostgreSQL text search: the page read from the trigram index instead, for a count that comes
     * back exact and below `below` (people.trigram.ts)
     */
    ifFew:
      few && byIndex
        ? {
            below: few.below,
            rows: withDisplayNames(byIndex),
            documents: documentsOf(byIndex),
          }
        : null,
    /** what a page sorted by id is ordered by: the id of the index it starts from */
    idExpression: rowsFromMatches
      ? 'people_search.rowid'
      : rowsFromTag
        ? 'pt.person_id'
        : 'people.id',
    filtered: filter(countFrom, 'count'),
    rows: withDisplayNames(listed),
    /** the standard fields already as JSON (people.document.ts): for pages without `fields` */
    documents: documentsOf(listed),
  };
}
