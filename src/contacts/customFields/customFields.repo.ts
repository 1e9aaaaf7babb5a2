import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { CustomFieldsTable, DbOrTrx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import type { CustomFieldEntity } from './customFields.values.js';

export type CustomFieldRow = Selectable<CustomFieldsTable>;

/** The definitions of one record kind in an account. */
export function customFieldsQuery(db: DbOrTrx, accountId: number, entity: CustomFieldEntity) {
  return db
    .selectFrom('custom_fields')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('entity', '=', entity);
}

/**
 * Takes the executor: inside a transaction the lookup must use it (SQLite has one connection, so
 * reading through `db` there would wait for the transaction forever).
 */
export function findCustomField(
  executor: DbOrTrx,
  accountId: number,
  entity: CustomFieldEntity,
  id: number,
): Promise<CustomFieldRow | undefined> {
  return customFieldsQuery(executor, accountId, entity).where('id', '=', id).executeTakeFirst();
}

/** The keys already used that start with `base`. */
export async function keysStartingWith(
  db: DbOrTrx,
  accountId: number,
  entity: CustomFieldEntity,
  base: string,
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('custom_fields')
    .select('name')
    .where('account_id', '=', accountId)
    .where('entity', '=', entity)
    .where('name', 'like', `${base}%`)
    .execute();
  return new Set(rows.map((r) => r.name));
}

export function insertCustomField(
  db: DbOrTrx,
  values: Insertable<CustomFieldsTable>,
): Promise<CustomFieldRow> {
  return db.insertInto('custom_fields').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateCustomField(
  db: DbOrTrx,
  id: number,
  changes: Updateable<CustomFieldsTable>,
): Promise<CustomFieldRow> {
  return db
    .updateTable('custom_fields')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteCustomField(db: DbOrTrx, id: number): Promise<void> {
  await db.deleteFrom('custom_fields').where('id', '=', id).execute();
}

/** Drops a field's stored values from every record of `valuesTable` in the account. */
export async function removeCustomValues(
  db: DbOrTrx,
  dialect: DialectName,
  valuesTable: string,
  accountId: number,
  name: string,
): Promise<void> {
  const removed =
    dialect === 'sqlite'
      ? sql`json_remove(custom, ${'$.' + name})`
      : sql`(custom::jsonb - ${name})::text`;
  await sql`update ${sql.table(valuesTable)} set custom = ${removed} where account_id = ${accountId} and custom like ${'%"' + name + '"%'}`.execute(
    db,
  );
}
