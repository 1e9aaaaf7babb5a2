import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import { ApiError, conflict } from '../../platform/http/errors.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { findChangeableCampaign } from '../emCampaigns/emCampaigns.repo.js';
import { visiblePersonIds } from '../../access/visibility.js';
import { buildPeopleListQuery } from '../../contacts/people/people.list.js';
import { findVisibleSmartList } from '../../contacts/smartLists/smartLists.repo.js';
import { withSmartList } from '../../contacts/smartLists/smartLists.filters.js';
import { isoSeconds, isoTimestamp } from '../../platform/time.js';
import type { CampaignSendBody } from './send.schemas.js';
import { newRecipientToken } from './tracking-links.js';
import { closeEmptySends, recipientCounts, type SendRow } from './sends.repo.js';

type SendBody = Static<typeof CampaignSendBody>;

const unprocessable = (message: string) => new ApiError(422, 'UNPROCESSABLE', message);

/** The built-in sender is usable: SMTP set, and a sender address for this user. */
export function assertConfigured(ctx: AppContext, auth: AuthUser): void {
  if (!ctx.config.smtpUrl)
    throw conflict(
      'Built-in email is not configured: set HEARTH_SMTP_URL (e.g. smtp://user:pass@host:587) ' +
        'and HEARTH_EMAIL_FROM on the server, then restart it',
    );
  if (!auth.email && !ctx.config.email.from)
    throw conflict('No sender address: give your user an email address or set HEARTH_EMAIL_FROM');
}

function readSendAt(raw: string | undefined, now: number): string {
  if (raw === undefined) return isoSeconds(now);
  const at = isoTimestamp(raw);
  if (at === null) throw unprocessable(`sendAt: '${raw}' is not an ISO 8601 date-time`);
  return at < isoSeconds(now) ? isoSeconds(now) : at;
}

/** The ids of the recipients the body names, all visible to the caller (422 otherwise). */
export async function recipientIds(ctx: AppContext, trx: Trx, auth: AuthUser, body: SendBody) {
  if ((body.personIds === undefined) === (body.smartListId === undefined))
    throw unprocessable('Give either personIds (a list of person ids) or smartListId, not both');
  if (body.personIds) {
    const wanted = [...new Set(body.personIds)];
    const found = new Set<number>();
    for (let i = 0; i < wanted.length; i += 500) {
      const rows = await visiblePersonIds(trx, auth)
        .where('people.id', 'in', wanted.slice(i, i + 500))
        .execute();
      rows.forEach((r) => found.add(r.id));
    }
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length)
      throw unprocessable(
        `personIds: no person ${missing.slice(0, 10).join(', ')} in this account that you can see`,
      );
    return wanted;
  }
  const listId = body.smartListId!;
  if (!(await findVisibleSmartList(trx, auth, listId)))
    throw unprocessable(`smartListId: no smart list ${listId} in this account that you can see`);
  const filters = await withSmartList(trx, auth, { smartListId: listId });
  const list = await buildPeopleListQuery(trx, ctx.dialect, auth, filters);
  const rows = await list.filtered.select('people.id').orderBy('people.id').execute();
  return rows.map((r) => r.id);
}

/**
 * Starts a send of a campaign in one transaction: the send (with the campaign's subject and body as
 * they are now) and one queued row per recipient, due at sendAt. 409 while another send of the
 * campaign is unfinished.
 */
export async function startCampaignSend(
  ctx: AppContext,
  auth: AuthUser,
  campaignId: number,
  body: SendBody,
): Promise<SendRow> {
  assertConfigured(ctx, auth);
  const now = ctx.clock.now();
  const sendAt = readSendAt(body.sendAt, now);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const campaign = await findChangeableCampaign(trx, auth, campaignId);
      // An earlier send whose recipients were all deleted has nothing left to do: it is over.
      await closeEmptySends(trx, isoSeconds(now), campaignId);
      await assertNoUnfinishedSend(trx, campaignId);
      const people = await recipientIds(ctx, trx, auth, body);
      if (people.length === 0)
        throw unprocessable(
          'No recipients: the smart list finds nobody you can see; nothing was sent',
        );
      const send = await trx
        .insertInto('em_sends')
        .values({
          account_id: auth.accountId,
          campaign_id: campaignId,
          user_id: auth.userId,
          status: 'sending',
          subject: campaign.subject,
          body_html: campaign.body_html,
          send_at: sendAt,
          total: people.length,
          created_at: isoSeconds(now),
          finished_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      for (let i = 0; i < people.length; i += 500) {
        const rows = people.slice(i, i + 500).map((personId) => ({
          account_id: auth.accountId,
          send_id: send.id,
          person_id: personId,
          status: 'queued' as const,
          run_at: sendAt,
          token: newRecipientToken(),
        }));
        await trx.insertInto('em_send_recipients').values(rows).execute();
      }
      return send;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw runningConflict(campaignId);
    throw err;
  }
}

const runningConflict = (campaignId: number) =>
  conflict(
    `Campaign ${campaignId} is already being sent; wait until that send is done (see GET /v1/emCampaigns/${campaignId})`,
  );

async function assertNoUnfinishedSend(trx: Trx, campaignId: number): Promise<void> {
  const open = await trx
    .selectFrom('em_sends')
    .select('id')
    .where('campaign_id', '=', campaignId)
    .where('status', '<>', 'done')
    .executeTakeFirst();
  if (open) throw runningConflict(campaignId);
}

/**
 * Cancels the unfinished send of a campaign: its recipients not yet handed to the SMTP server
 * (queued, or claimed by a worker that has not reached the final dot) become `cancelled`, with who
 * cancelled it as the reason. A message already being handed over (`handing`) is finished by its
 * worker: the server has it whole. 409 when no send of the campaign is unfinished.
 */
export async function cancelCampaignSend(
  ctx: AppContext,
  auth: AuthUser,
  campaignId: number,
): Promise<SendRow> {
  const at = isoSeconds(ctx.clock.now());
  return ctx.db.transaction().execute(async (trx) => {
    await findChangeableCampaign(trx, auth, campaignId);
    const send = await trx
      .selectFrom('em_sends')
      .selectAll()
      .where('campaign_id', '=', campaignId)
      .where('status', '<>', 'done')
      .executeTakeFirst();
    if (!send)
      throw conflict(
        `Campaign ${campaignId} has no send in progress or scheduled: nothing to cancel (see GET /v1/emCampaigns/${campaignId})`,
      );
    await trx
      .updateTable('em_send_recipients')
      .set({
        status: 'cancelled',
        reason: `the send was cancelled by ${auth.name || 'a user'}`,
        claim: null,
        locked_until: null,
      })
      .where('send_id', '=', send.id)
      .where('status', 'in', ['queued', 'claimed'])
      .execute();
    await trx
      .updateTable('em_sends')
      .set({ cancelled_at: at, cancelled_by: auth.name })
      .where('id', '=', send.id)
      .execute();
    await closeEmptySends(trx, at, campaignId);
    return (await trx
      .selectFrom('em_sends')
      .selectAll()
      .where('id', '=', send.id)
      .executeTakeFirst())!;
  });
}

/** A send's progress as the API shows it. */
export async function sendProgress(ctx: AppContext, send: SendRow) {
  const n = await recipientCounts(ctx.db, send.id);
  const pending = (n.queued ?? 0) + (n.claimed ?? 0) + (n.handing ?? 0);
  const scheduled = send.status !== 'done' && send.send_at > isoSeconds(ctx.clock.now());
  return {
    id: send.id,
    status: send.cancelled_at ? 'cancelled' : scheduled ? 'scheduled' : send.status,
    cancelledAt: send.cancelled_at,
    cancelledBy: send.cancelled_by,
    sendAt: send.send_at,
    created: send.created_at,
    finished: send.finished_at,
    total: send.total,
    pending,
    sent: n.sent ?? 0,
    skipped: n.skipped ?? 0,
    dropped: n.dropped ?? 0,
    hardBounced: n['hard-bounce'] ?? 0,
    softBounced: n['soft-bounce'] ?? 0,
    cancelled: n.cancelled ?? 0,
  };
}
