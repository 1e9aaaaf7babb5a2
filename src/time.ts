/** The clock is injectable so that schedules (retries, disabling, windows) can be tested by moving time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO 8601 UTC without milliseconds, the form the interface uses: 2026-01-31T12:00:00Z. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Webhook event times use a +00:00 offset instead of Z. */
export function isoOffset(ms: number): string {
  return isoSeconds(ms).replace(/Z$/, '+00:00');
}
