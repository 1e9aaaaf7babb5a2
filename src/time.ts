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
