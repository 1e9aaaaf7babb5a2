import { sql } from 'kysely';

/** Case-insensitive substring match on a column (`?name=` filters), the input's LIKE wildcards taken literally. */
export function containsText(column: string, value: string) {
  const pattern = `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}
