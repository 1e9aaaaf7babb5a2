import type { AppContext } from '../context.js';
import type { BackgroundJob } from './types.js';

export interface PollingLoopSpec {
  name: string;
  /** Does one round of work; answers true when more is waiting (the loop goes again at once). */
  tick(): Promise<boolean>;
  /** Pause between rounds when there was nothing more to do. */
  pollMs: number;
}

/**
 * The one claim/lease worker loop: runs `tick` until stopped, sleeping `pollMs` when idle. A tick
 * that throws is logged and the loop carries on; `stop` waits for the round in flight.
 */
export function pollingLoop(ctx: AppContext, spec: PollingLoopSpec): BackgroundJob {
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, spec.pollMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = null;
    });

  return {
    name: spec.name,
    start() {
      running = true;
      loop = (async () => {
        while (running) {
          let more = false;
          try {
            more = await spec.tick();
          } catch (err) {
            ctx.log.error({ job: spec.name, err }, 'background job round failed');
          }
          if (!more && running) await sleep();
        }
      })();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
