import type { AppContext } from '../../platform/context.js';
import { idleJob, type BackgroundJobFactory } from '../../platform/jobs/types.js';
import { pollingLoop } from '../../platform/jobs/loop.js';
import { retryDelay } from '../../platform/jobs/queue.js';
import { serverSecret } from '../../accounts/webhooks/signing.js';
import { buildMessage, mergeContent } from './compose.js';
import { recordOutcomes, type Delivery, type Outcome } from './outcomes.js';
import {
  abandonedHandovers,
  claimRecipients,
  markHanding,
  type RecipientRow,
} from './recipients.queue.js';
import { targetOf } from './recipient-target.js';
import { closeEmptySends, findSend, type SendRow } from './sends.repo.js';
import { isoSeconds } from '../../platform/time.js';
import { SmtpPool, type SmtpOutcome } from './smtp-pool.js';
import { senderOf, type Sender } from './sender.js';
import { linkKeys, messageIdOf, trackingUrls } from './tracking-links.js';

/** A claim's lease: far longer than a round (sized to ~2 s of sending), short enough to resume soon. */
export const LEASE_MS = 15_000;
const SWEEP_MS = 2_000;

/** The SMTP answer as what becomes of the recipient. */
function outcomeOf(result: SmtpOutcome, attempts: number, schedule: number[]): Outcome {
  if (result.kind === 'accepted') return { kind: 'sent' };
  if (result.kind === 'withheld') return { kind: 'withheld' };
  if (result.kind === 'failed' && result.afterDot)
    return { kind: 'sent', note: `no answer after the message was handed over: ${result.message}` };
  if (result.kind === 'rejected' && result.code >= 500)
    return { kind: 'hard-bounce', reason: result.response };
  const reason = result.kind === 'rejected' ? result.response : result.message;
  const delay = retryDelay(attempts, schedule);
  if (delay === null)
    return { kind: 'soft-bounce', reason: `gave up after ${attempts} tries: ${reason}` };
  return { kind: 'retry', reason, delaySeconds: delay };
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/**
 * The worker that sends campaign email: claims due recipients, merges and builds each message,
 * commits `handing` right before the final dot, and records the outcomes. Exactly once per
 * recipient: a claim is fenced by its random value, a message is finished only after `handing`
 * committed, and `handing` is never sent again.
 */
export const campaignEmailJob: BackgroundJobFactory = (ctx: AppContext) => {
  const { smtpUrl, email: conf } = ctx.config;
  if (!smtpUrl) return idleJob('campaign-email');
  const pool = new SmtpPool(smtpUrl, conf.connections, conf.rate);
  const keys = linkKeys(serverSecret(ctx.config));
  const host = new URL(ctx.config.publicUrl).hostname;
  const batch = conf.rate > 0 ? Math.max(1, Math.min(200, conf.rate * 2)) : 200;
  const sends = new Map<number, { send: SendRow; sender: Sender | null }>();

  const sendOf = async (id: number) => {
    const cached = sends.get(id);
    if (cached) return cached;
    const send = (await findSend(ctx.db, id))!;
    const user =
      send.user_id === null
        ? undefined
        : await ctx.db
            .selectFrom('users')
            .select(['name', 'email'])
            .where('id', '=', send.user_id)
            .executeTakeFirst();
    const sender = senderOf(user, conf);
    const entry = { send, sender };
    if (sends.size > 1000) sends.clear();
    sends.set(id, entry);
    return entry;
  };

  const deliver = async (row: RecipientRow): Promise<Delivery> => {
    const { send, sender } = await sendOf(row.send_id);
    const target = await targetOf(ctx.db, row, send.user_id);
    if (target.kind !== 'send') return { row, email: target.email, outcome: target };
    if (!sender)
      return {
        row,
        email: target.email,
        outcome: { kind: 'skipped', reason: 'no sender address: set HEARTH_EMAIL_FROM' },
      };
    const raw = await buildMessage({
      content: mergeContent({ subject: send.subject, bodyHtml: send.body_html }, target.data),
      ...sender,
      to: target.email,
      messageId: messageIdOf(keys, row.token, host),
      urls: trackingUrls(ctx.config.publicUrl, keys, row.token),
      dkim: conf.dkim,
    });
    const result = await pool.send({ from: sender.envelopeFrom, to: target.email }, raw, () =>
      markHanding(ctx, row, target.email, LEASE_MS),
    );
    return {
      row,
      email: target.email,
      outcome: outcomeOf(result, row.attempts, conf.retrySchedule),
    };
  };

  /** Sends left with no recipient (all deleted with their person) are closed every few seconds. */
  let nextSweep = 0;
  const sweep = async () => {
    const now = ctx.clock.now();
    if (now < nextSweep) return;
    nextSweep = now + SWEEP_MS;
    await closeEmptySends(ctx.db, isoSeconds(now));
  };

  const tick = async () => {
    await sweep();
    const abandoned = await abandonedHandovers(ctx, batch);
    const note = 'the worker stopped after handing the message to the SMTP server';
    await recordOutcomes(
      ctx,
      abandoned.map((row) => ({ row, email: row.email, outcome: { kind: 'sent', note } })),
    );
    const { rows } = await claimRecipients(ctx, batch, LEASE_MS);
    const deliveries = await eachLimited(rows, conf.connections * 2, async (row) => {
      try {
        return await deliver(row);
      } catch (err) {
        ctx.log.error({ err, recipientId: row.id }, 'campaign email failed; it will be retried');
        const delaySeconds = retryDelay(row.attempts, conf.retrySchedule) ?? 3600;
        return {
          row,
          email: row.email,
          outcome: { kind: 'retry', reason: (err as Error).message, delaySeconds },
        } as Delivery;
      }
    });
    await recordOutcomes(ctx, deliveries);
    return rows.length === batch || abandoned.length === batch;
  };

  const loop = pollingLoop(ctx, { name: 'campaign-email', pollMs: 250, tick });
  return {
    name: loop.name,
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      pool.close();
    },
  };
};
