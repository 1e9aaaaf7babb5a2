import type { ColumnDataType, ColumnDefinitionBuilder, Kysely } from 'kysely';

/** The few places where SQLite and PostgreSQL differ. */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(databaseUrl: string): DialectName {
  return databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

/** Column type for an auto-incrementing integer primary key. */
export function idType(dialect: DialectName): ColumnDataType {
  return dialect === 'sqlite' ? 'integer' : 'serial';
}

/**
 * Modifier for the `id` column: on SQLite AUTOINCREMENT, so an id is never handed out again after
 * the newest row is deleted (webhook receivers and clients key their data by these ids).
 */
export function primaryId(dialect: DialectName) {
  return (column: ColumnDefinitionBuilder) =>
    dialect === 'sqlite' ? column.primaryKey().autoIncrement() : column.primaryKey();
}

/** Column type for a floating point number. */
export function realType(dialect: DialectName): ColumnDataType {
  return dialect === 'sqlite' ? 'real' : 'double precision';
}

/** Unique-violation detection for both drivers. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

export type AnyDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
