import { type RawBuilder, sql } from 'kysely';
import type { CombinedWrites } from '../../platform/db/combined-writes.js';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import type { PersonRow } from './people.presenter.js';
import { columnsFromState, type PersonState, stateFromRow } from './people.state.js';
import { LOOKUP_COLUMNS, lookupValues } from './people.lookup-rows.js';
import { padded } from './people.matching.js';

/*
 * Writes of many people at once (a CSV import's batch): the same rows insertPerson and
 * updatePersonState write, in a handful of statements instead of four to six per person. On
 * PostgreSQL every statement is a round trip, which made a batch of 250 rows cost ~1,100 of them.
 * The rows travel as one JSON document per statement (json_to_recordset, json_each), so each
 * statement has one text whatever its number of rows: SQLite's statement cache keeps a handful of
 * statements instead of one per row count, and neither database parses thousands of parameters.
 * Only the insert of the people waits for its answer (their ids); the updates and the lookup rows
 * go into the caller's CombinedWrites, one round trip with the caller's other writes on PostgreSQL.
 */

/** Rows per statement. */
const CHUNK = 500;
/**
 * Rows per JSON document of a write that waits for no answer (CombinedWrites). On PostgreSQL they
 * cost no round trip, so their documents stay under V8's large-object size (128 KiB): a larger
 * string is allocated straight into the old generation and is only freed by a full collection,
 * which let a 100,000-row import's heap grow by tens of MB between collections.
 */
const LATER_CHUNK = { postgres: 100, sqlite: CHUNK } as const;

const INTEGER_COLUMNS = new Set([
  'id',
  'import_id',
  'row',
  'account_id',
  'person_id',
  'user_id',
  'stage_id',
  'timeframe_id',
  'contacted',
  'assigned_user_id',
  'assigned_lender_id',
  'assigned_pond_id',
]);
const pgType = (column: string) =>
  column === 'price' ? 'double precision' : INTEGER_COLUMNS.has(column) ? 'integer' : 'text';

/** `select <columns> from` a JSON array of objects holding them: one row per element, in order. */
function jsonRows(dialect: DialectName, columns: string[], rows: Record<string, unknown>[]) {
  const json = JSON.stringify(rows);
  if (dialect === 'postgres')
    return sql`select ${sql.join(columns.map((c) => sql.ref(c)))} from json_to_recordset(${json}::json) as j(${sql.join(
      columns.map((c) => sql`${sql.ref(c)} ${sql.raw(pgType(c))}`),
    )})`;
  return sql`select ${sql.join(
    columns.map((c) => sql`j.value ->> ${sql.lit(c)} as ${sql.ref(c)}`),
  )} from json_each(${json}) as j order by j.key`;
}

/** `insert into table (columns) select … from <rows>`, a statement per CHUNK rows. */
function insertStatements(
  dialect: DialectName,
  table: string,
  rows: Record<string, unknown>[],
  returningId = false,
  chunk = CHUNK,
): RawBuilder<{ id: number }>[] {
  const columns = Object.keys(rows[0]);
  const statements: RawBuilder<{ id: number }>[] = [];
  for (let i = 0; i < rows.length; i += chunk) {
    const select = jsonRows(dialect, columns, rows.slice(i, i + chunk));
    statements.push(
      sql<{ id: number }>`insert into ${sql.table(table)} (${sql.join(
        columns.map((c) => sql.ref(c)),
      )}) ${select}${returningId ? sql` returning id` : sql``}`,
    );
  }
  return statements;
}

/** Rows inserted into a table, added to `writes` (one round trip for all of them on PostgreSQL). */
export function insertRowsLater(
  writes: CombinedWrites,
  dialect: DialectName,
  table: string,
  rows: Record<string, unknown>[],
): void {
  if (rows.length)
    for (const statement of insertStatements(dialect, table, rows, false, LATER_CHUNK[dialect]))
      writes.add(statement);
}

/**
 * The stored state of these people of the account. With `lock` each row is locked for the rest of
 * the transaction first (lockPerson's rule for read-modify-write), in id order on PostgreSQL so two
 * batches locking overlapping people queue up instead of deadlocking; SQLite's single writer, whose
 * transactions begin IMMEDIATE, already excludes every other writer.
 */
export async function loadPeople(
  db: DbOrTrx,
  dialect: DialectName,
  accountId: number,
  ids: number[],
  options: { lock: boolean },
): Promise<Map<number, PersonState>> {
  const out = new Map<number, PersonState>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    let query = db
      .selectFrom('people')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', padded(ids.slice(i, i + CHUNK)))
      .orderBy('id');
    if (options.lock && dialect === 'postgres') query = query.forUpdate();
    for (const row of await query.execute())
      out.set(row.id, stateFromRow(row as unknown as PersonRow));
  }
  return out;
}

export interface NewPerson {
  state: PersonState;
  createdVia: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Inserts people and answers their ids in the order given. On SQLite the rows of one INSERT …
 * SELECT take the next rowids in the order the SELECT yields them, so the returned ids sorted
 * ascending are the rows' in order. On PostgreSQL the ids are drawn from the column's sequence
 * first (ascending, as its default would have drawn them row by row), and the insert joins the
 * caller's other writes: one round trip, and JSON documents kept small (LATER_CHUNK).
 */
export async function insertPeople(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  people: NewPerson[],
  writes: CombinedWrites,
): Promise<number[]> {
  if (people.length === 0) return [];
  const row = (p: NewPerson) => ({
    account_id: accountId,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    created_via: p.createdVia,
    ...columnsFromState(p.state),
  });
  const ids: number[] = [];
  if (dialect === 'postgres') {
    const drawn = await sql<{ id: string }>`select nextval(pg_get_serial_sequence('people', 'id'))
      as id from generate_series(1, ${people.length})`.execute(trx);
    ids.push(...drawn.rows.map((r) => Number(r.id)).sort((a, b) => a - b));
    insertRowsLater(
      writes,
      dialect,
      'people',
      people.map((p, k) => ({ id: ids[k], ...row(p) })),
    );
  } else
    for (let i = 0; i < people.length; i += CHUNK) {
      const [insert] = insertStatements(
        dialect,
        'people',
        people.slice(i, i + CHUNK).map(row),
        true,
      );
      const returned = (await insert.execute(trx)).rows.map((r) => Number(r.id));
      ids.push(...returned.sort((a, b) => a - b));
    }
  await syncLookupsOf(
    trx,
    accountId,
    people.map((p, k) => ({ personId: ids[k], state: p.state })),
    dialect,
    writes,
  );
  return ids;
}

export interface ChangedPerson {
  personId: number;
  before: PersonState;
  after: PersonState;
  at: string;
}

/** The columns of `after` that differ from `before` (only those are set, as updatePersonState does). */
function changedColumns(change: ChangedPerson): Record<string, unknown> {
  const was: Record<string, unknown> = columnsFromState(change.before);
  return Object.fromEntries(
    Object.entries(columnsFromState(change.after)).filter(([column, v]) => v !== was[column]),
  );
}

/**
 * Stores new states of existing people (only the columns that changed, as updatePersonState does:
 * SQLite rewrites the entries of every index on a column that is set) and their lookup rows: the
 * people that changed the same columns with one UPDATE … FROM their JSON document.
 */
export async function updatePeople(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  changes: ChangedPerson[],
  writes: CombinedWrites,
): Promise<void> {
  const shapes = new Map<string, Record<string, unknown>[]>();
  for (const change of changes) {
    const set = changedColumns(change);
    const shape = Object.keys(set).join(',');
    const group = shapes.get(shape) ?? [];
    group.push({ id: change.personId, updated_at: change.at, ...set });
    shapes.set(shape, group);
  }
  for (const [shape, rows] of shapes) {
    const columns = [...(shape ? shape.split(',') : []), 'updated_at'];
    const assignments = sql.join(columns.map((c) => sql`${sql.ref(c)} = j.${sql.ref(c)}`));
    for (let i = 0; i < rows.length; i += LATER_CHUNK[dialect]) {
      const source = jsonRows(dialect, ['id', ...columns], rows.slice(i, i + LATER_CHUNK[dialect]));
      writes.add(sql`update people set ${assignments} from (${source}) as j
        where people.account_id = ${accountId} and people.id = j.id`);
    }
  }
  await syncLookupsOf(
    trx,
    accountId,
    changes.map((c) => ({ personId: c.personId, state: c.after, previous: c.before })),
    dialect,
    writes,
  );
}

/**
 * syncLookups for many people: what is gone deleted now, what is new added to `writes` (one
 * multi-row INSERT per table).
 */
async function syncLookupsOf(
  trx: Trx,
  accountId: number,
  people: { personId: number; state: PersonState; previous?: PersonState }[],
  dialect: DialectName,
  writes: CombinedWrites,
): Promise<void> {
  const tables = Object.keys(LOOKUP_COLUMNS) as (keyof typeof LOOKUP_COLUMNS)[];
  const added = new Map(tables.map((t) => [t, [] as Record<string, unknown>[]]));
  for (const { personId, state, previous } of people) {
    const wanted = lookupValues(state);
    const had = previous ? lookupValues(previous) : null;
    for (const table of tables) {
      const column = LOOKUP_COLUMNS[table];
      const values: (string | number)[] = wanted[table];
      const before = new Set<string | number>(had?.[table] ?? []);
      // A merge only adds; a value gone is rare enough for a statement of its own.
      const gone = [...before].filter((value) => !values.includes(value));
      if (gone.length)
        await trx
          .deleteFrom(table)
          .where('account_id', '=', accountId)
          .where('person_id', '=', personId)
          .where(column, 'in', gone as never[])
          .execute();
      for (const value of values)
        if (!before.has(value))
          added.get(table)!.push({ account_id: accountId, person_id: personId, [column]: value });
    }
  }
  for (const [table, rows] of added) insertRowsLater(writes, dialect, table, rows);
}
