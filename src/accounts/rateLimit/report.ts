import { isoSeconds } from '../../platform/time.js';
import { CONTEXTS, type Tier } from './limits.js';
import type { UsageRow } from './usage.js';

export interface PeakHour {
  hour: string;
  requests: number;
}

export interface UsageTotals {
  totalRequests: number;
  rateLimitedRequests: number;
  percentRateLimited: number;
  peakHour: PeakHour | null;
}

const percent = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;

function totals(rows: UsageRow[]): UsageTotals {
  const perHour = new Map<string, number>();
  let total = 0;
  let limited = 0;
  for (const row of rows) {
    total += row.total;
    limited += row.limited;
    perHour.set(row.hour, (perHour.get(row.hour) ?? 0) + row.total);
  }
  let peak: PeakHour | null = null;
  // Ties go to the most recent hour.
  for (const [hour, requests] of [...perHour].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (requests > 0 && (!peak || requests >= peak.requests)) peak = { hour, requests };
  }
  return {
    totalRequests: total,
    rateLimitedRequests: limited,
    percentRateLimited: percent(limited, total),
    peakHour: peak,
  };
}

/** GET /v1/rateLimit/usage: 24-hour rolling totals, per context, and the limits in force. Pure. */
export function presentUsage(
  system: string,
  rows: UsageRow[],
  fromHour: number,
  now: number,
  limits: {
    enforced: boolean;
    window: number;
    limits: Record<Tier, Record<string, number | null>>;
  },
) {
  return {
    system,
    from: isoSeconds(fromHour),
    to: isoSeconds(now),
    ...totals(rows),
    contexts: CONTEXTS.map((context) => ({
      context,
      ...totals(rows.filter((r) => r.context === context)),
    })).filter((c) => c.totalRequests > 0),
    ...limits,
  };
}

/**
 * GET /v1/systems/:id/usage: the same totals over `hours` hours, and one entry per hour (zeros
 * included, oldest first) for a chart. Pure.
 */
export function presentHourlyUsage(
  system: string,
  rows: UsageRow[],
  fromHour: number,
  hours: number,
  now: number,
  limits: Parameters<typeof presentUsage>[4],
) {
  const hourMs = 3_600_000;
  const series = Array.from({ length: hours }, (_, i) => ({
    hour: isoSeconds(fromHour + i * hourMs),
    totalRequests: 0,
    rateLimitedRequests: 0,
    contexts: {} as Record<string, number>,
  }));
  const byHour = new Map(series.map((entry) => [entry.hour, entry]));
  for (const row of rows) {
    const entry = byHour.get(row.hour);
    if (!entry) continue;
    entry.totalRequests += row.total;
    entry.rateLimitedRequests += row.limited;
    entry.contexts[row.context] = (entry.contexts[row.context] ?? 0) + row.total;
  }
  return {
    system,
    from: isoSeconds(fromHour),
    to: isoSeconds(now),
    ...totals(rows),
    hours: series,
    ...limits,
  };
}
