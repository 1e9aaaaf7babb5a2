import type { SelectQueryBuilder } from 'kysely';
import type { DB, DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { canSeePerson } from '../../access/visibility.js';
import { insertRows, reusableQuery, reusableWrite } from '../../platform/db/reusable-query.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { personDocument } from './people.document.js';
import type { PersonRow } from './people.presenter.js';
import { syncLookups } from './people.lookup-rows.js';
import { columnsFromState, type PersonState } from './people.state.js';

/** People of one account, joined with the stage and user names the API shows. */
export function peopleQuery(db: DbOrTrx, accountId: number) {
  return withDisplayNames(db.selectFrom('people').where('people.account_id', '=', accountId));
}

/**
 * Adds the stage and user names the API shows beside the ids to a filtered people query. Scalar
 * subqueries, not joins: each is one primary-key lookup, where SQLite plans a LEFT JOIN on a small
 * users table as a scan per person (docs/performance-cpu.md).
 * people.document.ts writes the same three names into the JSON documents.
 */
export function withDisplayNames<QB extends SelectQueryBuilder<DB, 'people', object>>(query: QB) {
  return (query as SelectQueryBuilder<DB, 'people', object>)
    .selectAll('people')
    .select((eb) => [
      eb
        .selectFrom('stages')
        .select('stages.name')
        .whereRef('stages.id', '=', 'people.stage_id')
        .as('stage_name'),
      eb
        .selectFrom('users as assigned')
        .select('assigned.name')
        .whereRef('assigned.id', '=', 'people.assigned_user_id')
        .as('assigned_name'),
      eb
        .selectFrom('users as lender')
        .select('lender.name')
        .whereRef('lender.id', '=', 'people.assigned_lender_id')
        .as('lender_name'),
    ]);
}

const visiblePersonById = reusableQuery((db, role, accountId: number, userId: number, id: number) =>
  peopleQuery(db, accountId)
    .where('people.id', '=', id)
    .where((eb) =>
      canSeePerson(eb, { accountId, userId, role: role as AuthUser['role'], name: '', email: '' }),
    ),
);

export async function findVisiblePerson(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<PersonRow | undefined> {
  return (await visiblePersonById(db, auth.role, auth.accountId, auth.userId, id)) as
    PersonRow | undefined;
}

const documentById = reusableQuery(
  (db, shape, accountId: number, userId: number, id: number) => {
    const [dialect, role] = shape.split(':') as [DialectName, AuthUser['role'] | ''];
    const query = db
      .selectFrom('people')
      .select(personDocument(dialect).as('document'))
      .where('people.account_id', '=', accountId)
      .where('people.id', '=', id);
    return role
      ? query.where((eb) => canSeePerson(eb, { accountId, userId, role, name: '', email: '' }))
      : query;
  },
  { remembered: true },
);

/** A person's standard fields as JSON (people.document.ts); with `visibleTo`, only if that user may see them. */
export async function findPersonDocument(
  db: DbOrTrx,
  dialect: DialectName,
  accountId: number,
  id: number,
  visibleTo?: AuthUser,
): Promise<string | undefined> {
  return (
    await documentById(
      db,
      `${dialect}:${visibleTo?.role ?? ''}`,
      accountId,
      visibleTo?.userId ?? 0,
      id,
    )
  )?.document;
}

/**
 * Takes the person's row lock for the rest of the transaction, so that concurrent read-modify-write
 * updates (mergeTags, deduplicate) queue up instead of overwriting each other. A no-op update locks
 * the row on PostgreSQL; on SQLite it takes the database write lock, which serializes them too.
 */
export async function lockPerson(trx: Trx, accountId: number, personId: number): Promise<void> {
  await trx
    .updateTable('people')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('account_id', '=', accountId)
    .where('id', '=', personId)
    .execute();
}

const personById = reusableQuery((db, _shape, accountId: number, id: number) =>
  peopleQuery(db, accountId).where('people.id', '=', id),
);

export async function findPersonInAccount(
  db: DbOrTrx,
  accountId: number,
  id: number,
): Promise<PersonRow | undefined> {
  return (await personById(db, 'person', accountId, id)) as PersonRow | undefined;
}

export async function insertPerson(
  trx: Trx,
  accountId: number,
  state: PersonState,
  meta: { createdVia: string; at: string; createdAt?: string; lastActivity?: string | null },
): Promise<number> {
  const [{ id }] = (await insertRows(
    trx,
    'people',
    [
      {
        account_id: accountId,
        created_at: meta.createdAt ?? meta.at,
        updated_at: meta.at,
        last_activity: meta.lastActivity ?? null,
        created_via: meta.createdVia,
        ...columnsFromState(state),
      },
    ],
    { returning: 'id' },
  )) as { id: number }[];
  await syncLookups(trx, accountId, id, state);
  return id;
}

/** One compiled form per set of changed columns (`shape`, comma-separated), values in that order. */
const updatePersonColumns = reusableWrite(
  (
    db,
    shape,
    accountId: number,
    personId: number,
    at: string,
    ...values: (string | number | null)[]
  ) => {
    const columns = shape ? shape.split(',') : [];
    const set = Object.fromEntries(columns.map((column, i) => [column, values[i]]));
    return db
      .updateTable('people')
      .set({ ...set, updated_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', personId);
  },
);

export async function updatePersonState(
  trx: Trx,
  accountId: number,
  personId: number,
  previous: PersonState,
  state: PersonState,
  at: string,
): Promise<void> {
  // Only the columns that changed: SQLite rewrites the entries of every index on a column that is set.
  const was: Record<string, unknown> = columnsFromState(previous);
  const changed = Object.entries(columnsFromState(state)).filter(
    ([column, value]) => value !== was[column],
  );
  await updatePersonColumns(
    trx,
    changed.map(([column]) => column).join(','),
    accountId,
    personId,
    at,
    ...changed.map(([, value]) => value),
  );
  await syncLookups(trx, accountId, personId, state, previous);
}

export async function deletePerson(trx: Trx, accountId: number, personId: number): Promise<void> {
  await trx
    .deleteFrom('people')
    .where('account_id', '=', accountId)
    .where('id', '=', personId)
    .execute();
}

const stageNamed = reusableQuery((db, _shape, accountId: number, name: string) =>
  db.selectFrom('stages').select('id').where('account_id', '=', accountId).where('name', '=', name),
);

/** The id of the account's stage of that name (Lead, Trash…), or null. */
export async function stageIdNamed(
  db: DbOrTrx,
  accountId: number,
  name: string,
): Promise<number | null> {
  return (await stageNamed(db, 'stage', accountId, name))?.id ?? null;
}

export async function defaultStageId(db: DbOrTrx, accountId: number): Promise<number | null> {
  return stageIdNamed(db, accountId, 'Lead');
}
