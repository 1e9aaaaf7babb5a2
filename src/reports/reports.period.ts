import { badRequest } from '../platform/http/errors.js';
import { isoSeconds, parseTimestamp } from '../platform/time.js';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;
/** A longer period would read more counter rows than a report should (about 5 years). */
const MAX_DAYS = 1830;

/** A report's period, [since, until), in the stored form (UTC seconds) so it compares as text. */
export interface Period {
  since: string;
  until: string;
  sinceMs: number;
  untilMs: number;
}

function bound(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const ms = parseTimestamp(raw);
  if (ms === null)
    throw badRequest(
      `'${name}' must be an ISO 8601 date or timestamp such as 2026-01-31 or 2026-01-31T09:00:00Z`,
    );
  return ms;
}

/**
 * since/until from the query (until exclusive), by default the last 30 days up to now: since is
 * taken down and until up to the whole second, as records are timed to the second.
 */
export function periodOf(query: { since?: string; until?: string }, nowMs: number): Period {
  const givenUntil = bound('until', query.until);
  const givenSince = bound('since', query.since);
  const untilMs = Math.ceil((givenUntil ?? nowMs) / 1000) * 1000;
  const sinceMs = Math.floor((givenSince ?? untilMs - DEFAULT_DAYS * DAY_MS) / 1000) * 1000;
  if (sinceMs >= untilMs) throw badRequest("'since' must be before 'until'");
  if (untilMs - sinceMs > MAX_DAYS * DAY_MS)
    throw badRequest(`A report covers at most ${MAX_DAYS} days; shorten the period`);
  return { since: isoSeconds(sinceMs), until: isoSeconds(untilMs), sinceMs, untilMs };
}

/**
 * The period cut where daily counters can answer: whole UTC days [firstDay, endDay) and the
 * parts before and after them that the records' own index ranges answer (empty ranges dropped).
 */
export function splitByDays(period: Period): {
  days: { from: string; to: string } | null;
  edges: { from: string; to: string }[];
} {
  const firstDayMs = Math.ceil(period.sinceMs / DAY_MS) * DAY_MS;
  const endDayMs = Math.floor(period.untilMs / DAY_MS) * DAY_MS;
  if (firstDayMs >= endDayMs)
    return { days: null, edges: [{ from: period.since, to: period.until }] };
  const day = (ms: number) => isoSeconds(ms).slice(0, 10);
  const edges = [
    { from: period.since, to: isoSeconds(firstDayMs) },
    { from: isoSeconds(endDayMs), to: period.until },
  ].filter((e) => e.from < e.to);
  return { days: { from: day(firstDayMs), to: day(endDayMs) }, edges };
}
