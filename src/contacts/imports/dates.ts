import { isoTimestamp } from '../../platform/time.js';

/**
 * Dates in an imported file (the Created column and date custom fields). Spreadsheets write dates
 * as their locale shows them, so an import reads more forms than the API's strict rule
 * (src/platform/time.ts), which stays as it is for every other input:
 * - ISO 8601, as the API takes it: `2025-03-07`, `2025-03-07T14:30:00Z`, `2025-03-07 14:30+01:00`;
 * - day, month and year as numbers separated by `/`, `-` or `.`, the year last, four digits or two:
 *   `3/7/2025`, `03-07-25`. The request's `dateFormat` tells their order: `MDY` (the default, as
 *   US spreadsheets write them: 3/7/2025 is March 7) or `DMY` (7 March). `00`–`29` are 2000–2029,
 *   `30`–`99` 1930–1999 (as Excel reads two-digit years);
 * - the year first with `/` or `.`: `2025/3/7` is always year, month, day;
 * - any of the last two with a time after a space: `H:mm` or `H:mm:ss`, 24-hour, or 12-hour with
 *   `AM`/`PM` (`3/7/2025 2:30 PM`).
 * A date and time without a zone is UTC, as in the API. Days and times that do not exist (2/30,
 * 13/1 in MDY, 25:00) are refused, as is anything else: the row error names the accepted forms.
 */
export type DateFormat = 'MDY' | 'DMY';
export const DATE_FORMATS: DateFormat[] = ['MDY', 'DMY'];

const NUMERIC_DATE =
  /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]\.?M\.?)?)?$/i;

const two = (n: number) => String(n).padStart(2, '0');

/** A two- or four-digit year as a full year (Excel's rule for two digits), or null. */
function fullYear(text: string): number | null {
  if (text.length === 4) return Number(text);
  if (text.length === 2) return Number(text) + (Number(text) < 30 ? 2000 : 1900);
  return null;
}

/** `H`, `mm`, `ss` and an optional AM/PM as 24-hour values, or null for a time that does not exist. */
function hours(h: number, meridiem: string | undefined): number | null {
  if (!meridiem) return h;
  if (h < 1 || h > 12) return null;
  const pm = meridiem[0].toUpperCase() === 'P';
  return (h % 12) + (pm ? 12 : 0);
}

/** An imported date or date-time as the API's ISO form (`YYYY-MM-DDTHH:mm:ssZ`), or null. */
export function importedTimestamp(raw: string, format: DateFormat): string | null {
  const text = raw.trim();
  const iso = isoTimestamp(text);
  if (iso !== null) return iso;
  const m = NUMERIC_DATE.exec(text);
  if (!m) return null;
  const [, a, b, c, h, mi, s, meridiem] = m;
  let year: number | null;
  let month: number;
  let day: number;
  if (a.length === 4) {
    if (text[4] === '-') return null; // YYYY-M-D without ISO's two digits: not a form we take
    [year, month, day] = [Number(a), Number(b), Number(c)];
  } else {
    if (a.length > 2) return null;
    year = fullYear(c);
    [month, day] = format === 'MDY' ? [Number(a), Number(b)] : [Number(b), Number(a)];
  }
  if (year === null) return null;
  const hour = h === undefined ? 0 : hours(Number(h), meridiem);
  if (hour === null) return null;
  // The strict rule checks that the day and the time exist.
  return isoTimestamp(
    `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${mi ?? '00'}:${s ?? '00'}Z`,
  );
}

/** An imported date as `YYYY-MM-DD` (a date custom field keeps the day written), or null. */
export function importedDate(raw: string, format: DateFormat): string | null {
  const text = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(text))
    return isoTimestamp(text) === null ? null : text.slice(0, 10);
  return importedTimestamp(text, format)?.slice(0, 10) ?? null;
}

/** The row error's words for a date that is none of the forms above. */
export function notADate(column: string, value: string, format: DateFormat): string {
  const example = format === 'MDY' ? '3/7/2025 (March 7)' : '7/3/2025 (7 March)';
  return `${column}: '${value}' is not a date; use 2025-03-07, ${example} or either with a time (14:30, 2:30 PM), or set dateFormat`;
}
