import type { AppContext } from '../../platform/context.js';
import { pollingLoop } from '../../platform/jobs/loop.js';
import type { BackgroundJob } from '../../platform/jobs/types.js';
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
