import { stringify, type Stringifier } from 'csv-stringify';

/**
 * A cell a spreadsheet would run as a formula (OWASP "CSV injection": it starts with = + - @, tab
 * or CR). Leading quotes are looked past so that a value which already starts with `'=` gets a
 * quote of its own, and the import's unneutralise gives every value back unchanged.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** `=HYPERLINK(…)` → `'=HYPERLINK(…)`: spreadsheets show the text instead of running it. */
export function neutralise(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** The import's inverse of `neutralise`: `'+1 555 0100` reads back as `+1 555 0100`. */
export function unneutralise(cell: string): string {
  return cell.charCodeAt(0) === 39 /* ' */ && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}

/**
 * The CSV every download writes: a BOM (Excel reads UTF-8), CRLF records, every cell holding a
 * line break quoted (a bare LF must not end the record) and formula cells neutralised.
 */
export function csvWriter(): Stringifier {
  return stringify({
    bom: true,
    record_delimiter: '\r\n',
    quoted_match: /[\r\n]/,
    cast: { string: neutralise },
  });
}

/** Characters the import splits a Tags cell on. */
const TAG_SEPARATORS = /[,;|]/;

/**
 * The Tags cell: `a, b`, or a JSON array (`["Smith, John","b"]`) when a tag holds a separator or
 * would read as one, so that every tag survives export → import.
 */
export function tagsCell(tags: string[]): string {
  const plain = tags.every((t) => !TAG_SEPARATORS.test(t) && !t.startsWith('['));
  return plain ? tags.join(', ') : JSON.stringify(tags);
}

/** The tags of a Tags cell: a JSON array of strings as written by `tagsCell`, else split. */
export function tagsFromCell(cell: string): string[] {
  if (cell.startsWith('[')) {
    const list = parsedStringArray(cell);
    if (list) return list.map((t) => t.trim()).filter(Boolean);
  }
  return cell
    .split(/[,;|]+/)
    .map((t) => t.trim())
    .filter(Boolean);
}

function parsedStringArray(text: string): string[] | null {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
  } catch {
    return null;
  }
}
