import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { BackgroundJob } from './types.js';

const PURGE_EVERY_MS = 3600_000;

export interface HourlyPurgeSpec {
  name: string;
  /** Deletes what is no longer needed as of `now` (ms since the epoch). */
  purge(db: Db, now: number): Promise<void>;
  /** Logged as a warning when a round fails; the next round retries an hour later. */
  failure: string;
}

/**
 * A job that purges stale rows once an hour. A failed round is logged and retried by the next one;
 * the timer does not keep the process alive, and `stop` waits for the round in flight.
 */
export function hourlyPurgeJob(ctx: AppContext, spec: HourlyPurgeSpec): BackgroundJob {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const run = () => {
    running = spec
      .purge(ctx.db, ctx.clock.now())
      .catch((err) => ctx.log.warn({ err }, spec.failure))
      .finally(() => {
        running = null;
      });
  };
  return {
    name: spec.name,
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
