import type { AppContext } from '../context.js';
import type { BackgroundJob } from '../jobs/types.js';
import { purgeExpired } from './oauth.repo.js';

const PURGE_EVERY_MS = 3600_000;

/** Hourly: drops token rows whose refresh token can no longer be used, and spent codes without tokens. */
export function oauthPurgeJob(ctx: AppContext): BackgroundJob {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const run = () => {
    running = purgeExpired(ctx.db, ctx.clock.now())
      .catch((err) => ctx.log.warn({ err }, 'oauth purge failed; retrying next hour'))
      .finally(() => {
        running = null;
      });
  };
  return {
    name: 'oauth-purge',
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
