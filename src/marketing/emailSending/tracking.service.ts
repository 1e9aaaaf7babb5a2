import type { AppContext } from '../../platform/context.js';
import { recordEmEvents } from '../emEvents/emEvents.service.js';
import { loadMergeData } from '../templates/merge-data.js';
import { mergeContent, trackedHtml } from './compose.js';
import { BUILT_IN_SYSTEM } from './outcomes.js';
import { senderActor } from './sends.repo.js';
import { isRecipientToken, type LinkKeys, trackingUrls } from './tracking-links.js';

export type TrackedMessage = NonNullable<Awaited<ReturnType<typeof findTrackedMessage>>>;

/** The message a tracking token stands for: only messages that went out (or were handed over). */
export async function findTrackedMessage(ctx: AppContext, token: string) {
  if (!isRecipientToken(token)) return undefined;
  const row = await ctx.db
    .selectFrom('em_send_recipients as r')
    .innerJoin('em_sends as s', 's.id', 'r.send_id')
    .select([
      'r.person_id',
      'r.email',
      'r.token',
      's.id as send_id',
      's.account_id',
      's.campaign_id',
      's.user_id',
      's.status',
      's.subject',
      's.body_html',
      's.send_at',
      's.total',
      's.created_at',
      's.finished_at',
    ])
    .where('r.token', '=', token)
    .where('r.status', 'in', ['sent', 'handing'])
    .executeTakeFirst();
  return row;
}

type TrackedType = 'open' | 'click' | 'unsubscribe';

/** Records what the recipient did as an emEvent, with the webhooks third-party events fire. */
export async function recordTracked(
  ctx: AppContext,
  message: TrackedMessage,
  type: TrackedType,
  url?: string,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const send = {
      id: message.send_id,
      account_id: message.account_id,
      campaign_id: message.campaign_id,
      user_id: message.user_id,
    };
    const auth = await senderActor(trx, send);
    await recordEmEvents(
      trx,
      { auth, system: BUILT_IN_SYSTEM },
      [
        {
          campaignId: message.campaign_id,
          personId: message.person_id,
          recipient: message.email,
          type,
          ...(url ? { url } : {}),
        },
      ],
      { now: ctx.clock.now(), dialect: ctx.dialect },
    );
  });
}

/** Has this recipient's address already unsubscribed (from this or any campaign)? */
export async function alreadyUnsubscribed(ctx: AppContext, message: TrackedMessage) {
  const row = await ctx.db
    .selectFrom('em_events')
    .select('id')
    .where('account_id', '=', message.account_id)
    .where('person_id', '=', message.person_id)
    .where('type', 'in', ['unsubscribe', 'spamreport'])
    .executeTakeFirst();
  return row !== undefined;
}

/** The message as the recipient got it, merged again now ("merged when displayed"). */
export async function viewHtml(ctx: AppContext, keys: LinkKeys, message: TrackedMessage) {
  const merge = await loadMergeData(ctx.db, message.account_id, message.person_id, message.user_id);
  if (!merge) return null;
  const content = mergeContent(
    { subject: message.subject, bodyHtml: message.body_html },
    merge.data,
  );
  const urls = trackingUrls(ctx.config.publicUrl, keys, message.token);
  return { subject: content.subject, html: trackedHtml(content.bodyHtml, urls, { pixel: false }) };
}
