import { sql } from 'kysely';

/** Case-insensitive substring match on a column (`?name=` filters), the input's LIKE wildcards taken literally. */
export function containsText(column: string, value: string) {
  return sql<boolean>`lower(${sql.ref(column)}) like ${containing(value)} escape '\\'`;
}

/** The LIKE pattern (escape `\\`) for text containing `value`, in lower case, its wildcards taken literally. */
export const containing = (value: string) =>
  `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
