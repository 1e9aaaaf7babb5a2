import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { ApiError, conflict, notFound } from '../../platform/http/errors.js';
import { assertPersonVisible } from '../../access/visibility.js';
import { findChangeableCampaign } from '../emCampaigns/emCampaigns.repo.js';
import { loadAgent, loadMergeData } from '../templates/merge-data.js';
import type { MergeData } from '../templates/merge-fields.js';
import { mergeContent } from './compose.js';
import { htmlToText } from './html-text.js';
import { senderLine, senderOf } from './sender.js';
import { assertConfigured, recipientIds } from './send.service.js';
import type { CampaignSendBody } from './send.schemas.js';

/**
 * What a person checks before sending a campaign: how many people a send would go to (counted
 * exactly as the send counts them), who it comes from, and a test message to their own inbox.
 */

/** Recipients a send with this body would have now, and the sender they would see. */
export async function previewSend(
  ctx: AppContext,
  auth: AuthUser,
  campaignId: number,
  body: Static<typeof CampaignSendBody>,
) {
  const sender = senderOf(auth, ctx.config.email);
  return ctx.db.transaction().execute(async (trx) => {
    await findChangeableCampaign(trx, auth, campaignId);
    const recipients = (await recipientIds(ctx, trx, auth, body)).length;
    return { recipients, from: sender ? senderLine(sender) : null };
  });
}

/** The merge data of the test: the chosen person's, else no contact and the sender as agent. */
async function testMergeData(ctx: AppContext, auth: AuthUser, personId: number | undefined) {
  if (personId === undefined) {
    const agent = await loadAgent(ctx.db, auth.accountId, auth.userId);
    return { agent, contact: null, inquiryStreet: null } satisfies MergeData;
  }
  await assertPersonVisible(ctx.db, auth, personId);
  const merge = await loadMergeData(ctx.db, auth.accountId, personId, auth.userId);
  if (!merge) throw notFound(`Person ${personId}`);
  return merge.data;
}

/**
 * Sends the campaign as it is now, merged for `mergePersonId`, to the caller's own address only,
 * at once (the answer waits for the SMTP server). Nothing is tracked or counted in statistics.
 */
export async function sendTestEmail(
  ctx: AppContext,
  auth: AuthUser,
  campaignId: number,
  mergePersonId: number | undefined,
) {
  assertConfigured(ctx, auth);
  if (!auth.email)
    throw conflict('Your user has no email address: add one in Settings, then send the test');
  const campaign = await findChangeableCampaign(ctx.db, auth, campaignId);
  const data = await testMergeData(ctx, auth, mergePersonId);
  const content = mergeContent({ subject: campaign.subject, bodyHtml: campaign.body_html }, data);
  const sender = senderOf(auth, ctx.config.email)!;
  const note =
    '<p style="font-size:12px;color:#666">A test of a Hearth campaign: its links are not ' +
    'tracked and it has no unsubscribe link; recipients get both.</p>';
  const html = content.bodyHtml + note;
  const message = {
    from: sender.from,
    sender: sender.envelopeFrom === sender.from.address ? undefined : sender.envelopeFrom,
    envelope: { from: sender.envelopeFrom, to: auth.email },
    to: auth.email,
    subject: `[Test] ${content.subject}`,
    html,
    text: htmlToText(html),
  };
  try {
    await ctx.smtp!.sendMail(message);
  } catch (err) {
    // The mail server's answer, never the SMTP URL (it may hold a password).
    throw new ApiError(
      502,
      'SMTP_FAILED',
      `The mail server did not take the test: ${(err as Error).message}`,
    );
  }
  return { to: auth.email, from: senderLine(sender), subject: `[Test] ${content.subject}` };
}
