import type { AppContext } from '../../platform/context.js';
import type { BackgroundJob } from '../../platform/jobs/types.js';
import { DeliveryEngine } from './deliverer.js';
import { FANOUT_BATCH, fanOutOutbox, type OutboxReader } from './dispatcher.js';
import { WebhookSender } from './sender.js';
import { SigningKeys } from './signing-keys.js';
import { pruneDeliveryLog } from './retention.js';

/** How often the worker looks for new outbox rows and due retries when nothing woke it. */
export const POLL_MS = 50;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The webhook worker: fans outbox rows out into deliveries and sends them. Runs in the API
 * process (HEARTH_ROLE=all) or in any number of worker processes (HEARTH_ROLE=worker).
 * `readers` see each batch of outbox rows first (src/worker.ts: automation triggers).
 */
export function webhookDeliveryJob(ctx: AppContext, readers: OutboxReader[] = []): BackgroundJob {
  const sender = new WebhookSender(ctx.config);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let lastPrune = 0;
  const engine = new DeliveryEngine(ctx, sender, new SigningKeys(ctx), () => wake());

  async function tick(): Promise<void> {
    let handled: number;
    do {
      const fanOut = await fanOutOutbox(ctx, readers);
      handled = fanOut.rows;
      engine.notify(fanOut.webhookIds);
      await engine.schedule();
    } while (handled === FANOUT_BATCH && !stopped);
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await pruneDeliveryLog(ctx);
    }
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    running = tick()
      .catch((err) => ctx.log.error({ err }, 'webhook worker tick failed'))
      .finally(() => {
        running = null;
        if (stopped) return;
        if (again) {
          again = false;
          setImmediate(wake);
        } else {
          timer = setTimeout(wake, POLL_MS);
        }
      });
  }

  return {
    name: 'webhook-delivery',
    start() {
      wake();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await engine.stop();
      await sender.close();
    },
  };
}
