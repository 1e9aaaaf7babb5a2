import type { AppContext } from '../context.js';
import { pollingLoop } from '../jobs/loop.js';
import type { BackgroundJob } from '../jobs/types.js';
import { expireDueOffers } from './claims.service.js';

const BATCH = 100;

/** Moves unclaimed leads to their fallback when the claim window ends (state in the database). */
export function leadOffersJob(ctx: AppContext): BackgroundJob {
  return pollingLoop(ctx, {
    name: 'leadOffers',
    pollMs: 1000,
    tick: async () => (await expireDueOffers(ctx, BATCH)) === BATCH,
  });
}
