import { randomUUID } from 'node:crypto';
import type { BackgroundJob, BackgroundJobFactory } from '../../../platform/jobs/types.js';
import { isoSeconds } from '../../../platform/time.js';
import { MailboxFault, runSession, SessionStopped } from './session.js';
import { OAuthFailed } from '../oauth.js';

/** How often a worker looks for mailboxes to hold and renews its leases. */
const TICK_MS = 2_000;
/** A lease outlives a dead worker this long; a live one renews it every tick. */
const LEASE_MS = 60_000;
/** Seconds before retry 1, 2, 3…; the last repeats. */
const BACKOFF = [30, 60, 120, 300, 900, 1800, 3600];

interface Held {
  abort: AbortController;
  done: Promise<void>;
}

/**
 * The mailbox sync in the worker role: each mailbox's IMAP connection is held by one worker at a
 * time through a lease on its row (`locked_by`, `locked_until`), as webhook lanes are; a worker
 * that dies leaves its mailboxes to the others once the lease runs out. A failing mailbox backs
 * off and shows why in its status; the others go on.
 */
export const mailboxSyncJob: BackgroundJobFactory = (ctx): BackgroundJob => {
  const workerId = `mailbox-${randomUUID()}`;
  const held = new Map<number, Held>();
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  const iso = (offsetMs = 0) => isoSeconds(ctx.clock.now() + offsetMs);

  async function renew() {
    for (const [id, session] of held) {
      const result = await ctx.db
        .updateTable('mailboxes')
        .set({ locked_until: iso(LEASE_MS) })
        .where('id', '=', id)
        .where('locked_by', '=', workerId)
        .executeTakeFirst();
      // Disconnected (row gone) or taken over after a stall: stop at the next checkpoint.
      if (result.numUpdatedRows === 0n) session.abort.abort();
    }
  }

  async function claim(): Promise<number[]> {
    const room = ctx.config.mailbox.connections - held.size;
    if (room <= 0) return [];
    const now = iso();
    let query = ctx.db
      .selectFrom('mailboxes')
      .select('id')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(room);
    if (held.size) query = query.where('id', 'not in', [...held.keys()]);
    const claimed: number[] = [];
    for (const { id } of await query.execute()) {
      // Conditional update: of two workers racing for a mailbox, one gets it.
      const result = await ctx.db
        .updateTable('mailboxes')
        .set({ locked_by: workerId, locked_until: iso(LEASE_MS) })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .executeTakeFirst();
      if (result.numUpdatedRows === 1n) claimed.push(id);
    }
    return claimed;
  }

  async function finish(id: number, err: unknown) {
    const stopped = err === null || err instanceof SessionStopped;
    if (!stopped) {
      const known = err instanceof MailboxFault || err instanceof OAuthFailed;
      const message = known ? (err as Error).message : `Sync failed: ${(err as Error).message}`;
      if (!known) ctx.log.warn({ mailboxId: id, err }, 'mailbox sync failed');
      const row = await ctx.db
        .selectFrom('mailboxes')
        .select('failures')
        .where('id', '=', id)
        .executeTakeFirst();
      const failures = (row?.failures ?? 0) + 1;
      const wait = BACKOFF[Math.min(failures, BACKOFF.length) - 1] * 1000;
      await ctx.db
        .updateTable('mailboxes')
        .set({
          status: 'error',
          error: message.slice(0, 500),
          failures,
          next_attempt_at: iso(wait),
          updated_at: iso(),
        })
        .where('id', '=', id)
        .execute();
    }
    await ctx.db
      .updateTable('mailboxes')
      .set({ locked_by: null, locked_until: null })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  function hold(id: number) {
    const abort = new AbortController();
    const done = runSession(ctx, id, abort.signal)
      .then(
        () => finish(id, null),
        (err: unknown) => finish(id, err),
      )
      .catch((err: unknown) => ctx.log.error({ mailboxId: id, err }, 'mailbox lease not released'))
      .finally(() => held.delete(id));
    held.set(id, { abort, done });
  }

  async function tick() {
    try {
      await renew();
      for (const id of await claim()) hold(id);
    } catch (err) {
      ctx.log.error({ err }, 'mailbox sync tick failed');
    }
  }

  return {
    name: 'mailbox sync',
    start() {
      const run = () => {
        ticking = tick().finally(() => {
          ticking = null;
          if (timer !== null) timer = setTimeout(run, TICK_MS);
        });
      };
      timer = setTimeout(run, 0);
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await ticking;
      for (const session of held.values()) session.abort.abort();
      await Promise.all([...held.values()].map((s) => s.done));
    },
  };
};
