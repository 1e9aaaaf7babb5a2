import { badRequest } from '../../platform/http/errors.js';

/** When a person plans to move: the same list for every account, as in the real API. */
export const TIMEFRAMES = [
  { id: 1, timeframe: '0-3 Months' },
  { id: 2, timeframe: '3-6 Months' },
  { id: 3, timeframe: '6-12 Months' },
  { id: 4, timeframe: '12+ Months' },
  { id: 5, timeframe: 'No Plans' },
] as const;

/** A person's `timeframeId` as given (null clears it); 400 for an id that names no timeframe. */
export function timeframeIdOf(id: number | null): number | null {
  if (id === null || TIMEFRAMES.some((t) => t.id === id)) return id;
  throw badRequest(
    `Field 'timeframeId' must name a timeframe (GET /v1/timeframes): ${TIMEFRAMES.map((t) => t.id).join(', ')}`,
    [{ field: 'timeframeId', message: 'unknown timeframe' }],
  );
}
