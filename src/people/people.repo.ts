import type { SelectQueryBuilder } from 'kysely';
import type { DB, DbOrTrx, Trx } from '../db/database.js';
import type { AuthUser } from '../http/auth.js';
import { canSeePerson } from '../access/visibility.js';
import { insertRows, reusableQuery, reusableWrite } from '../db/reusable-query.js';
import type { DialectName } from '../db/dialect.js';
import { personDocument } from './people.document.js';
import type {
  PersonRow,
  StoredAddress,
  StoredCollaborator,
  StoredEmail,
  StoredPhone,
} from './people.presenter.js';

/** The stored state of a person, in the shape the service reasons about. */
export interface PersonState {
  name: string;
  firstName: string;
  lastName: string;
  stageId: number | null;
  source: string;
  sourceUrl: string;
  price: number | null;
  background: string;
  timeframeId: number | null;
  contacted: number;
  assignedUserId: number | null;
  assignedLenderId: number | null;
  assignedPondId: number | null;
  emails: StoredEmail[];
  phones: StoredPhone[];
  addresses: StoredAddress[];
  tags: string[];
  collaborators: StoredCollaborator[];
  custom: Record<string, unknown>;
}

export function emptyPersonState(): PersonState {
  return {
    name: '',
    firstName: '',
    lastName: '',
    stageId: null,
    source: '',
    sourceUrl: '',
    price: null,
    background: '',
    timeframeId: null,
    contacted: 0,
    assignedUserId: null,
    assignedLenderId: null,
    assignedPondId: null,
    emails: [],
    phones: [],
    addresses: [],
    tags: [],
    collaborators: [],
    custom: {},
  };
}

export function stateFromRow(row: PersonRow): PersonState {
  return {
    name: row.name,
    firstName: row.first_name,
    lastName: row.last_name,
    stageId: row.stage_id,
    source: row.source,
    sourceUrl: row.source_url,
    price: row.price,
    background: row.background,
    timeframeId: row.timeframe_id,
    contacted: row.contacted,
    assignedUserId: row.assigned_user_id,
    assignedLenderId: row.assigned_lender_id,
    assignedPondId: row.assigned_pond_id,
    emails: JSON.parse(row.emails),
    phones: JSON.parse(row.phones),
    addresses: JSON.parse(row.addresses),
    tags: JSON.parse(row.tags),
    collaborators: JSON.parse(row.collaborators),
    custom: JSON.parse(row.custom),
  };
}

/** A person's state as the columns of its `people` row (people.bulk.ts writes many at once). */
export function columnsFromState(state: PersonState) {
  return {
    name: state.name,
    first_name: state.firstName,
    last_name: state.lastName,
    stage_id: state.stageId,
    source: state.source,
    source_url: state.sourceUrl,
    price: state.price,
    background: state.background,
    timeframe_id: state.timeframeId,
    contacted: state.contacted,
    assigned_user_id: state.assignedUserId,
    assigned_lender_id: state.assignedLenderId,
    assigned_pond_id: state.assignedPondId,
    emails: JSON.stringify(state.emails),
    phones: JSON.stringify(state.phones),
    addresses: JSON.stringify(state.addresses),
    tags: JSON.stringify(state.tags),
    collaborators: JSON.stringify(state.collaborators),
    custom: JSON.stringify(state.custom),
  };
}

/** People of one account, joined with the stage and user names the API shows. */
export function peopleQuery(db: DbOrTrx, accountId: number) {
  return withDisplayNames(db.selectFrom('people').where('people.account_id', '=', accountId));
}

/**
 * Adds the stage and user names the API shows beside the ids to a filtered people query. Scalar
 * subqueries, not joins: each is one primary-key lookup, where SQLite plans a LEFT JOIN on a small
 * users table as a scan per person (a GET by id took 44 µs in SQLite with the joins, 12 µs without).
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

const documentById = reusableQuery((db, shape, accountId: number, userId: number, id: number) => {
  const [dialect, role] = shape.split(':') as [DialectName, AuthUser['role'] | ''];
  const query = db
    .selectFrom('people')
    .select(personDocument(dialect).as('document'))
    .where('people.account_id', '=', accountId)
    .where('people.id', '=', id);
  return role
    ? query.where((eb) => canSeePerson(eb, { accountId, userId, role, name: '', email: '' }))
    : query;
});

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

/** The values a person's lookup tables (emails, phones, tags, collaborators) hold for a state. */
export function lookupValues(state: PersonState) {
  return {
    person_emails: [...new Set(state.emails.map((e) => e.value.toLowerCase()))],
    person_phones: [...new Set(state.phones.map((p) => p.normalized).filter(Boolean))],
    person_tags: [...new Set(state.tags.map((t) => t.toLowerCase()))],
    person_collaborators: [...new Set(state.collaborators.map((c) => c.id))],
  };
}
export const LOOKUP_COLUMNS = {
  person_emails: 'email',
  person_phones: 'normalized',
  person_tags: 'tag',
  person_collaborators: 'user_id',
} as const;

/** Keeps the lookup tables in step with a person's JSON columns: adds what is new, removes what is gone. */
async function syncLookups(
  trx: Trx,
  accountId: number,
  personId: number,
  state: PersonState,
  previous?: PersonState,
): Promise<void> {
  const wanted = lookupValues(state);
  const had = previous ? lookupValues(previous) : null;
  for (const table of Object.keys(LOOKUP_COLUMNS) as (keyof typeof LOOKUP_COLUMNS)[]) {
    const column = LOOKUP_COLUMNS[table];
    const values: (string | number)[] = wanted[table];
    const before = new Set<string | number>(had?.[table] ?? []);
    const gone = [...before].filter((value) => !values.includes(value));
    const added = values.filter((value) => !before.has(value));
    if (gone.length)
      await deleteLookupRows(trx, `${table}:${gone.length}`, accountId, personId, ...gone);
    if (added.length) {
      await insertRows(
        trx,
        table,
        added.map(
          (value) => ({ account_id: accountId, person_id: personId, [column]: value }) as never,
        ),
      );
    }
  }
}

// One compiled form per lookup table and number of values removed.
const deleteLookupRows = reusableWrite(
  (db, shape, accountId: number, personId: number, ...gone: (string | number)[]) => {
    const table = shape.split(':')[0] as keyof typeof LOOKUP_COLUMNS;
    return db
      .deleteFrom(table)
      .where('account_id', '=', accountId)
      .where('person_id', '=', personId)
      .where(LOOKUP_COLUMNS[table], 'in', gone as never[]);
  },
);

export async function insertPerson(
  trx: Trx,
  accountId: number,
  state: PersonState,
  meta: { createdVia: string; at: string; lastActivity?: string | null },
): Promise<number> {
  const [{ id }] = (await insertRows(
    trx,
    'people',
    [
      {
        account_id: accountId,
        created_at: meta.at,
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

/** Finds a person of the account by any of the emails (case-insensitive), else any of the phones (digits). */
export async function findMatchingPerson(
  db: DbOrTrx,
  accountId: number,
  emails: string[],
  phones: string[],
): Promise<{ personId: number; matchedBy: 'email' | 'phone' } | null> {
  const lowered = emails.map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (lowered.length) {
    const hit = await personByEmail(db, String(lowered.length), accountId, ...lowered);
    if (hit) return { personId: hit.person_id, matchedBy: 'email' };
  }
  const digits = phones.map(normalizePhone).filter(Boolean);
  if (digits.length) {
    const hit = await personByPhone(db, String(digits.length), accountId, ...digits);
    if (hit) return { personId: hit.person_id, matchedBy: 'phone' };
  }
  return null;
}

/**
 * The values, with the last repeated up to the next power of two: an `in (…)` list of a few
 * lengths only, so SQLite's statement cache keeps a few statements, not one per length.
 */
export function padded<T>(values: T[]): T[] {
  let size = 1;
  while (size < values.length) size *= 2;
  return values.concat(Array(size - values.length).fill(values[values.length - 1]));
}

/**
 * findMatchingPerson for many people at once (a bulk import): one query per 500 emails or phones
 * instead of one or two per person. `match` answers as findMatchingPerson would (any email, the
 * lowest id; else any phone) and `learn` records what the caller has written since, so people of
 * the same batch match each other.
 */
export async function matchingIndex(
  db: DbOrTrx,
  accountId: number,
  emails: string[],
  phones: string[],
) {
  const byEmail = new Map<string, number>();
  const byPhone = new Map<string, number>();
  const keep = (map: Map<string, number>, key: string, id: number) => {
    if (!map.has(key) || map.get(key)! > id) map.set(key, id);
  };
  const lowered = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  const digits = [...new Set(phones.map(normalizePhone).filter(Boolean))];
  for (let i = 0; i < lowered.length; i += 500) {
    const rows = await db
      .selectFrom('person_emails')
      .select(['email', 'person_id'])
      .where('account_id', '=', accountId)
      .where('email', 'in', padded(lowered.slice(i, i + 500)))
      .execute();
    for (const r of rows) keep(byEmail, r.email, r.person_id);
  }
  for (let i = 0; i < digits.length; i += 500) {
    const rows = await db
      .selectFrom('person_phones')
      .select(['normalized', 'person_id'])
      .where('account_id', '=', accountId)
      .where('normalized', 'in', padded(digits.slice(i, i + 500)))
      .execute();
    for (const r of rows) keep(byPhone, r.normalized, r.person_id);
  }
  const lowest = (map: Map<string, number>, keys: string[]) =>
    keys.reduce<number | undefined>((min, k) => {
      const id = map.get(k);
      return id !== undefined && (min === undefined || id < min) ? id : min;
    }, undefined);
  return {
    match(state: Pick<PersonState, 'emails' | 'phones'>) {
      const email = lowest(
        byEmail,
        state.emails.map((e) => e.value.trim().toLowerCase()),
      );
      if (email !== undefined) return { personId: email, matchedBy: 'email' as const };
      const phone = lowest(
        byPhone,
        state.phones.map((p) => normalizePhone(p.value)),
      );
      return phone === undefined ? null : { personId: phone, matchedBy: 'phone' as const };
    },
    learn(personId: number, state: Pick<PersonState, 'emails' | 'phones'>) {
      for (const e of state.emails) keep(byEmail, e.value.trim().toLowerCase(), personId);
      for (const p of state.phones) keep(byPhone, normalizePhone(p.value), personId);
    },
  };
}

// Run for every lead; one compiled form per number of emails (phones) matched.
const personByEmail = reusableQuery((db, _count, accountId: number, ...emails: string[]) =>
  db
    .selectFrom('person_emails')
    .select('person_id')
    .where('account_id', '=', accountId)
    .where('email', 'in', emails)
    .orderBy('person_id')
    .limit(1),
);
const personByPhone = reusableQuery((db, _count, accountId: number, ...digits: string[]) =>
  db
    .selectFrom('person_phones')
    .select('person_id')
    .where('account_id', '=', accountId)
    .where('normalized', 'in', digits)
    .orderBy('person_id')
    .limit(1),
);

/**
 * Digits only, so "(555) 010-2030" and "555.010.2030" match; a North American number written with
 * its country code (+1 555 010 2030) matches the same number written without it.
 */
export function normalizePhone(value: string): string {
  const digits = value.replace(/\D+/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}
