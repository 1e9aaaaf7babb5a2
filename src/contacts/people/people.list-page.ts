import type { Static } from '@sinclair/typebox';
import type { CompiledQuery, SelectQueryBuilder } from 'kysely';
import type { DB, DbOrTrx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { countRows } from '../../platform/db/count-cache.js';
import { runsOnReadThreads, type SyncReader, syncReaderOf } from '../../platform/db/hearth-db.js';
import { readAtOnce } from '../../platform/db/remembered-reads.js';
import { budgetDeadline } from '../../platform/db/sqlite/budget-function.js';
import { compiledShapes, type QueryArgument } from '../../platform/db/reusable-query.js';
import {
  envelopeJson,
  type Page,
  type PageRequest,
  pageOf,
  pageQueries,
  paginate,
  readPage,
  type ListRequest,
  requestedIds,
  type SortKey,
} from '../../platform/http/pagination.js';
import type { AppContext } from '../../platform/context.js';
import { withSmartList } from '../smartLists/smartLists.filters.js';
import { type FieldSelection, type PersonRow, presentPerson } from './people.presenter.js';
import { seesWholeAccount } from '../../access/roles.js';
import { withDisplayNames } from './people.repo.js';
import { equalityFiltersOf } from './people.list-filters.js';
import {
  buildPeopleListQuery,
  hiddenTrashId,
  notInTrash,
  peopleSort,
  visibleWithin,
  withDocuments,
} from './people.list.js';
import type { PeopleListQuery } from './people.schemas.js';

type ListQuery = Static<typeof PeopleListQuery>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PeopleSelect = SelectQueryBuilder<DB, 'people', any>;

/** Filters that make a list read an index first (people.list.ts builds those plans each time). */
const INDEXED_FILTERS = [
  'q',
  'name',
  'firstName',
  'lastName',
  'tags',
  'createdAfter',
  'createdBefore',
  'updatedAfter',
  'updatedBefore',
  'lastActivityAfter',
  'lastActivityBefore',
  'priceAbove',
  'priceBelow',
] as const;

/** The page and its total, compiled once per shape of the `walk` plan. */
const walkQueries = compiledShapes();

export interface WalkPageOptions {
  db: DbOrTrx;
  dialect: DialectName;
  deadline: number;
  sort: SortKey;
  page: PageRequest;
  /** the presented rows (a `fields` selection) instead of the database-written documents */
  rows: boolean;
  publicUrl: string;
}

/**
 * Whether a page's reads are small whatever the data (SQLite): the whole account without filters
 * reads its page in index order and a total capped at EXACT_TOTAL_LIMIT, under a millisecond
 * at a million people (more only when most of the account is in Trash, which the walk steps over),
 * so it reads at once on the read connection rather than paying a read thread's round trips
 * (docs/performance-cpu.md). A filter or an agent's visibility can make a walk read many rows to
 * find a page: those stay on the read threads, off the event loop.
 */
function smallReads(db: DbOrTrx, auth: AuthUser, filterCount: number, ids: unknown[] | null) {
  return runsOnReadThreads(db) && seesWholeAccount(auth) && filterCount === 0 && ids === null;
}

function readSmallPage(
  reader: SyncReader,
  rows: CompiledQuery | null,
  total: CompiledQuery | number,
): [{ id: number }[], number] {
  const found = rows ? (readAtOnce(reader, rows.sql, rows.parameters) as { id: number }[]) : [];
  if (typeof total === 'number') return [found, total];
  const [row] = readAtOnce(reader, total.sql, total.parameters) as { total: number }[];
  return [found, Number(row?.total ?? 0)];
}

/**
 * A page of the `walk` plan (people.list-plans.ts: no text search, tag or range, so nothing to
 * choose from the data) read with SQL compiled once per shape: building and compiling it with
 * Kysely cost more main-thread time than SQLite's reading of a hundred people. The shape is what
 * changes the SQL (the caller's kind of visibility, which filters, trash, sort, cursor, page
 * size and offset, id count); every value is a parameter. Null when the list needs another plan.
 */
export async function walkPage(
  request: ListRequest,
  auth: AuthUser,
  q: ListQuery,
  options: WalkPageOptions,
): Promise<Page<{ id: number }> | null> {
  const { db, dialect, sort, page } = options;
  if (INDEXED_FILTERS.some((name) => q[name] !== undefined)) return null;
  // A cursor of another sort is refused by pageQueries, whose message the general path gives.
  if (page.cursor && page.cursor.s !== sort.name) return null;
  const filters = equalityFiltersOf(q);
  const trashId = await hiddenTrashId(db, auth.accountId, q);
  const ids = requestedIds(request);
  const byId = sort.expression === 'people.id';

  const args: QueryArgument[] = [];
  const slot = (value: QueryArgument) => args.push(value) - 1;
  const account = slot(auth.accountId);
  const user = slot(auth.userId);
  const deadline = slot(budgetDeadline(options.deadline));
  const trash = trashId === null ? -1 : slot(trashId);
  const filterSlots = filters.map(({ value }) => slot(value));
  const idSlots = ids?.map(slot) ?? null;
  const cursorId = page.cursor ? slot(page.cursor.id) : -1;
  const cursorValue = page.cursor && !byId ? slot(page.cursor.v ?? null) : -1;
  const shape = JSON.stringify([
    seesWholeAccount(auth) ? 'account' : auth.role,
    filters.map(({ filter }) => filter.name),
    trash >= 0,
    sort.name,
    Boolean(page.cursor),
    page.cursor ? 0 : page.offset,
    page.limit,
    ids?.length ?? null,
    options.rows,
    runsOnReadThreads(db),
  ]);

  const build = (p: string[]) => {
    const placeheld = { ...auth, accountId: p[account], userId: p[user] } as unknown as AuthUser;
    let query = db.selectFrom('people') as PeopleSelect;
    for (const condition of visibleWithin(dialect, placeheld, p[deadline]))
      query = condition(query);
    filters.forEach(({ filter }, i) => {
      query = filter.where(db, placeheld.accountId, p[filterSlots[i]])(query);
    });
    if (trash >= 0) query = notInTrash(p[trash])(query);
    const cursor = page.cursor && {
      ...page.cursor,
      id: p[cursorId] as unknown as number,
      v: cursorValue >= 0 ? p[cursorValue] : undefined,
    };
    const { rowsQuery, countQuery } = pageQueries({
      query: options.rows ? withDisplayNames(query) : withDocuments(dialect, query),
      countQuery: query,
      page: { ...page, cursor },
      sort,
      idExpression: 'people.id',
      ids: idSlots && (idSlots.map((i) => p[i]) as unknown as number[]),
      db,
    });
    return [rowsQuery, countQuery];
  };
  const [rows, count] = walkQueries(db, shape, args, build);
  const known = page.cursor?.t;
  const [found, total] = smallReads(db, auth, filters.length, ids)
    ? readSmallPage(syncReaderOf(db)!, page.limit === 0 ? null : rows, known ?? count)
    : await Promise.all([
        page.limit === 0
          ? []
          : db.executeQuery(rows as CompiledQuery<{ id: number }>).then((r) => r.rows),
        known !== undefined ? known : countRows(db, { compile: () => count } as never),
      ]);
  return pageOf(
    request,
    { ...options, idExpression: 'people.id', collection: 'people', db },
    found,
    Number(total ?? 0),
  );
}

type PeopleFilters = Awaited<ReturnType<typeof withSmartList>>;

/**
 * One page of GET /v1/people: without `fields` the envelope as JSON text around the
 * database-written documents, with it the presented rows.
 */
export async function peoplePage(
  ctx: AppContext,
  request: ListRequest & { auth: AuthUser },
  filters: PeopleFilters,
  { db, deadline }: { db: DbOrTrx; deadline: number },
  selection: FieldSelection | null,
) {
  const sort = peopleSort(filters.sort);
  const walked = await walkPage(request, request.auth, filters, {
    db,
    dialect: ctx.dialect,
    deadline,
    sort,
    page: readPage(request.query as PeopleFilters),
    rows: selection !== null,
    publicUrl: ctx.config.publicUrl,
  });
  if (walked) return presentPage(walked, selection);
  const pageById = sort.expression === 'people.id';
  const list = await buildPeopleListQuery(db, ctx.dialect, request.auth, filters, {
    deadline,
    pageById,
  });
  const listPage = <Row extends { id: number }>(
    query: typeof list.rows | typeof list.documents,
    ifFew: typeof list.rows | typeof list.documents | undefined,
  ) =>
    paginate<Row>(request, {
      collection: 'people',
      query,
      ifFew: list.ifFew && ifFew ? { query: ifFew, below: list.ifFew.below } : null,
      countQuery: list.filtered,
      page: readPage(request.query as PeopleFilters),
      sort: pageById ? { ...sort, expression: list.idExpression } : sort,
      idExpression: list.idExpression,
      publicUrl: ctx.config.publicUrl,
      db,
    });
  return presentPage(
    selection
      ? await listPage<PersonRow>(list.rows, list.ifFew?.rows)
      : await listPage<{ id: number; document: string }>(list.documents, list.ifFew?.documents),
    selection,
  );
}

/** Without `fields` the envelope as JSON text around the documents, with it the presented rows. */
function presentPage(page: Page<{ id: number }>, selection: FieldSelection | null) {
  if (!selection) {
    const documents = page.rows.map((row) => (row as unknown as { document: string }).document);
    return envelopeJson('people', page.metadata, documents);
  }
  return {
    _metadata: page.metadata,
    people: page.rows.map((row) => presentPerson(row as unknown as PersonRow, selection)),
  };
}
