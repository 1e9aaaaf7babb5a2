import type { AppContext } from '../context.js';
import type { BackgroundJob } from '../jobs/types.js';
import { purgeExpiredKeys } from './idempotency.repo.js';

const PURGE_EVERY_MS = 3600_000;

/** Hourly: drops Idempotency-Key records older than 24 hours. */
export function idempotencyPurgeJob(ctx: AppContext): BackgroundJob {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const run = () => {
    running = purgeExpiredKeys(ctx.db, ctx.clock.now())
      .catch((err) => ctx.log.warn({ err }, 'idempotency key purge failed; retrying next hour'))
      .finally(() => {
        running = null;
      });
  };
  return {
    name: 'idempotency-purge',
    start() {
      timer = setInterval(run, PURGE_EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
