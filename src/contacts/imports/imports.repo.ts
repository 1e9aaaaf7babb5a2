import { type Selectable, sql, type Updateable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { ownUnlessAdmin } from '../../access/ownership.js';
import type { ImportsTable } from './imports.tables.js';
import './imports.tables.js';

export type ImportRow = Selectable<ImportsTable>;

/** Errors listed in GET /v1/imports/:id; the whole report is errors.csv. */
export const ERRORS_SHOWN = 100;

export async function insertImport(
  db: DbOrTrx,
  values: Omit<
    ImportsTable,
    'id' | 'processed' | 'created' | 'updated' | 'skipped' | 'error_count' | 'removed'
  >,
): Promise<number> {
  const row = await db
    .insertInto('imports')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateImport(
  db: DbOrTrx,
  id: number,
  values: Updateable<ImportsTable>,
): Promise<void> {
  await db.updateTable('imports').set(values).where('id', '=', id).execute();
}

export async function deleteImport(db: DbOrTrx, id: number): Promise<void> {
  await db.deleteFrom('imports').where('id', '=', id).execute();
}

export async function findImport(db: DbOrTrx, id: number): Promise<ImportRow | undefined> {
  return db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Imports the caller may see: an Owner or Admin every import of the account, others their own. */
export function visibleImports(db: DbOrTrx, auth: AuthUser) {
  return db
    .selectFrom('imports')
    .selectAll()
    .where('account_id', '=', auth.accountId)
    .where('status', '!=', 'uploading')
    .where((eb) => ownUnlessAdmin(eb, auth, 'user_id'));
}

export async function findVisibleImport(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<ImportRow | undefined> {
  return visibleImports(db, auth).where('id', '=', id).executeTakeFirst();
}

export async function storeChunk(db: DbOrTrx, importId: number, seq: number, data: Buffer) {
  await db.insertInto('import_chunks').values({ import_id: importId, seq, data }).execute();
}

/**
 * Bytes of a stored chunk read per query. A whole 1 MiB chunk came as one 2 MiB hex message that
 * the driver gathered in a buffer grown to 4 MiB, then copied twice: big native blocks that the
 * allocator kept once freed (about 50 MB of the worker's peak on a 100,000-row import).
 */
export const PIECE_BYTES = 128 * 1024;

/** PIECE_BYTES of chunk `seq` from byte `offset` (fewer at its end); undefined without the chunk. */
export async function readPiece(db: DbOrTrx, importId: number, seq: number, offset: number) {
  const row = await db
    .selectFrom('import_chunks')
    .select(sql<Uint8Array>`substr(data, ${offset + 1}, ${PIECE_BYTES})`.as('data'))
    .where('import_id', '=', importId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  if (!row) return undefined;
  return Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data);
}

/** The first errors of an import, or with `kind` 'warnings' its first warnings, in row order. */
export async function firstErrors(
  db: DbOrTrx,
  importId: number,
  limit = ERRORS_SHOWN,
  kind: 'errors' | 'warnings' = 'errors',
) {
  return db
    .selectFrom(kind === 'errors' ? 'import_errors' : 'import_warnings')
    .select(['row', 'message'])
    .where('import_id', '=', importId)
    .orderBy('row')
    .limit(limit)
    .execute();
}

/** The errors of an import after a row number, in row order, a page at a time (errors.csv). */
export async function errorsAfter(db: DbOrTrx, importId: number, afterRow: number, limit: number) {
  return db
    .selectFrom('import_errors')
    .select(['row', 'message'])
    .where('import_id', '=', importId)
    .where('row', '>', afterRow)
    .orderBy('row')
    .limit(limit)
    .execute();
}

/** The people an import created that are still there, a page at a time (undo). */
export async function createdPeople(db: DbOrTrx, importId: number, limit: number) {
  const rows = await db
    .selectFrom('import_people')
    .select('person_id')
    .where('import_id', '=', importId)
    .orderBy('person_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.person_id);
}

/** The user an import runs as: its rights are theirs at the time the rows are written. */
export async function importer(db: DbOrTrx, row: ImportRow): Promise<AuthUser | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'role'])
    .where('id', '=', row.user_id)
    .where('account_id', '=', row.account_id)
    .executeTakeFirst();
  return user && { accountId: row.account_id, userId: user.id, ...user };
}
