/** The clock is injectable so that schedules (retries, disabling, windows) can be tested by moving time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO 8601 UTC without milliseconds, the form the interface uses: 2026-01-31T12:00:00Z. */
export function isoSeconds(ms: number): string {
  // A request formats the same second several times (created, updated, occurred, outbox rows…).
  const second = Math.floor(ms / 1000);
  if (second === lastSecond) return lastFormatted;
  const iso = new Date(second * 1000).toISOString();
  // `YYYY-MM-DDTHH:mm:ss.sssZ`, or with a six-digit signed year far from now
  lastFormatted = iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
  lastSecond = second;
  return lastFormatted;
}
let lastSecond = Number.NaN;
let lastFormatted = '';

/** Webhook event times use a +00:00 offset instead of Z. */
export function isoOffset(ms: number): string {
  return isoSeconds(ms).replace(/Z$/, '+00:00');
}

/*
 * Date inputs: one rule for every field that takes a time (docs/architecture.md, "Time").
 * - A timestamp is ISO 8601 (RFC 3339): `YYYY-MM-DD`, or `YYYY-MM-DDTHH:mm[:ss[.fraction]]` with an
 *   optional zone, `Z` or `±HH:MM` / `±HHMM` (a space may stand for the `T`).
 * - A date-time without a zone is UTC, never the server's local time; a date alone is its midnight UTC.
 * - Date-only fields (a task's dueDate, a deal's projectedCloseDate, date custom fields) stay dates.
 * - Anything else is refused, including what `Date.parse` would loosely accept ("March 7, 2025",
 *   "3/7/2025", "2025") and days or times that do not exist (2025-02-30, 24:00).
 */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/i;

/** A timestamp input as epoch milliseconds, or null when it does not follow the rule above. */
export function parseTimestamp(raw: string): number | null {
  const m = TIMESTAMP.exec(raw.trim());
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, s = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) =>
    part === undefined ? undefined : Number(part),
  ) as number[];
  if (!isCalendarDay(y, mo, d) || h > 23 || mi > 59 || s > 59) return null;
  const millis = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  const offsetMinutes = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0;
  if (m[9] && (Number(m[10]) > 23 || Number(m[11]) > 59)) return null;
  return utc(y, mo, d).setUTCHours(h, mi, s, millis) - offsetMinutes * 60_000;
}

/** A date-only input (`YYYY-MM-DD`, a day that exists), or null. */
export function parseDate(raw: string): string | null {
  const text = raw.trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && parseTimestamp(text) !== null ? text : null;
}

/** The date a date-only field keeps from a date or a timestamp input (its written day), or null. */
export function dateOf(raw: string): string | null {
  const text = raw.trim();
  return parseTimestamp(text) === null ? null : text.slice(0, 10);
}

/** Midnight UTC of a day (years 0-99 too, which Date.UTC would read as 1900-1999). */
function utc(y: number, m: number, d: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date;
}

function isCalendarDay(y: number, m: number, d: number): boolean {
  const date = utc(y, m, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A timestamp input in the stored form (UTC, seconds: 2026-01-31T12:00:00Z), or null. */
export function isoTimestamp(raw: string): string | null {
  const ms = parseTimestamp(raw);
  return ms === null ? null : isoSeconds(ms);
}
