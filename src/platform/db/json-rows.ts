import { CompiledQuery } from 'kysely';
import type { DbOrTrx } from './database.js';
import type { DialectName } from './dialect.js';

/** A column's type as PostgreSQL's json_to_recordset must be told it (SQLite reads JSON's own types). */
export type JsonColumnType = 'integer' | 'text';

/**
 * `insert into table (columns) select … from <one JSON array of rows>`: one statement text for any
 * number of rows, built once per table and columns, so a hot write of many rows neither has Kysely
 * parse every value of every row nor prepares a statement per row count. Rows are inserted in
 * array order (ids ascend with it). Returns the `returning` columns of the new rows.
 */
export async function insertJsonRows<R = Record<string, unknown>>(
  db: DbOrTrx,
  dialect: DialectName,
  table: string,
  columns: Readonly<Record<string, JsonColumnType>>,
  rows: readonly Record<string, unknown>[],
  returning: readonly string[] = [],
): Promise<R[]> {
  if (rows.length === 0) return [];
  const text = statementText(dialect, table, columns, returning);
  const result = await db.executeQuery<R>(CompiledQuery.raw(text, [JSON.stringify(rows)]));
  return result.rows;
}

const texts = new Map<string, string>();

function statementText(
  dialect: DialectName,
  table: string,
  columns: Readonly<Record<string, JsonColumnType>>,
  returning: readonly string[],
): string {
  const names = Object.keys(columns);
  const key = `${dialect}|${table}|${names.join(',')}|${returning.join(',')}`;
  let text = texts.get(key);
  if (text) return text;
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const select =
    dialect === 'postgres'
      ? `select ${names.map(quote).join(', ')} from json_to_recordset($1::json) as j(${names
          .map((n) => `${quote(n)} ${columns[n]}`)
          .join(', ')})`
      : `select ${names.map((n) => `j.value ->> '${n.replace(/'/g, "''")}'`).join(', ')} from json_each(?) as j order by j.key`;
  text =
    `insert into ${quote(table)} (${names.map(quote).join(', ')}) ${select}` +
    (returning.length ? ` returning ${returning.map(quote).join(', ')}` : '');
  texts.set(key, text);
  return text;
}
