import { randomUUID } from 'node:crypto';
import type { AppContext } from '../platform/context.js';
import type { Trx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { conflict, notFound } from '../platform/http/errors.js';
import { DUE_NOW } from '../accounts/webhooks/dispatcher.js';
import type { InboxAppEventName } from '../accounts/webhooks/event-names.js';
import { isoSeconds } from '../platform/time.js';
import { checkAttachments } from './inboxAttachments.js';
import {
  type ConversationRow,
  type InboxAppRow,
  insertMessage,
  visibleConversations,
} from './inboxApps.repo.js';

/**
 * Queues one event for an installation's subscription URL, in the caller's transaction: a stored
 * event and a pending delivery on the installation's own webhooks row, which the webhook worker
 * sends like any delivery (signed with the installing system's key, retried on its schedule,
 * the address checked again at each attempt). 409 when the subscription is gone (it answered
 * 406/410, or kept failing for a week).
 */
export async function queueAppEvent(
  trx: Trx,
  ctx: AppContext,
  app: InboxAppRow,
  event: InboxAppEventName,
  data: Record<string, unknown>,
): Promise<void> {
  const hook = await trx
    .selectFrom('webhooks')
    .select(['id', 'status'])
    .where('inbox_app_id', '=', app.id)
    .executeTakeFirst();
  if (app.status !== 'Active' || !hook || hook.status !== 'Active')
    throw conflict(
      `Inbox app ${app.id} no longer receives events (deactivated, or its subscription URL refused them); it must be installed again`,
    );
  const nowMs = ctx.clock.now();
  const uuid = randomUUID();
  const eventCreated = isoSeconds(nowMs).replace(/Z$/, '+00:00');
  const payload = JSON.stringify({ eventId: uuid, eventCreated, event, data });
  const at = new Date(nowMs).toISOString();
  const { id } = await trx
    .insertInto('webhook_events')
    .values({ event_uuid: uuid, account_id: app.account_id, event, payload, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('webhook_deliveries')
    .values({
      account_id: app.account_id,
      webhook_id: hook.id,
      event_id: id,
      state: 'pending',
      next_attempt_at: DUE_NOW,
      created_at: at,
    })
    .execute();
}

/** A conversation of a person the caller sees, with its installation; 404 otherwise. */
async function load(trx: Trx, auth: AuthUser, id: number) {
  const conversation = await visibleConversations(trx, auth)
    .where('inbox_conversations.id', '=', id)
    .executeTakeFirst();
  if (!conversation) throw notFound(`Conversation ${id}`);
  const app = await trx
    .selectFrom('inbox_apps')
    .selectAll()
    .where('id', '=', conversation.inbox_app_id)
    .executeTakeFirstOrThrow();
  return { conversation, app };
}

const ids = (app: InboxAppRow, c: ConversationRow) => ({
  inboxAppId: app.id,
  externalConversationId: c.external_id,
  fubConversationId: c.id,
  conversationId: c.id,
});

/** A Hearth user's reply: stored on the timeline and sent to the app as inboxAppReply. */
export async function reply(
  ctx: AppContext,
  auth: AuthUser,
  id: number,
  message: string,
  files?: Parameters<typeof checkAttachments>[0],
) {
  const attachments = checkAttachments(files);
  const at = isoSeconds(ctx.clock.now());
  return ctx.db.transaction().execute(async (trx) => {
    const { conversation, app } = await load(trx, auth, id);
    if (conversation.permanently_archived === 1)
      throw conflict('The conversation is permanently archived: no more replies or notes');
    const messageId = await insertMessage(trx, {
      account_id: auth.accountId,
      conversation_id: conversation.id,
      inbox_app_id: app.id,
      person_id: conversation.person_id,
      kind: 'message',
      external_id: null,
      reply_to_external_id: null,
      message,
      is_incoming: 0,
      sender: JSON.stringify({ userId: auth.userId, name: auth.name }),
      user_id: auth.userId,
      sent_at: at,
      delivery_status: null,
      delivery_error: null,
      attachments: JSON.stringify(attachments),
      created_at: at,
      updated_at: at,
    });
    await queueAppEvent(trx, ctx, app, 'inboxAppReply', {
      ...ids(app, conversation),
      body: message,
      messageId,
      userData: { id: auth.userId },
      attachments,
    });
    return messageId;
  });
}

/** The caller read the conversation: inboxAppConversationRead. */
export async function markRead(ctx: AppContext, auth: AuthUser, id: number) {
  await ctx.db.transaction().execute(async (trx) => {
    const { conversation, app } = await load(trx, auth, id);
    const last = await trx
      .selectFrom('inbox_messages')
      .select(['id', 'external_id'])
      .where('conversation_id', '=', conversation.id)
      .where('kind', '=', 'message')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    await queueAppEvent(trx, ctx, app, 'inboxAppConversationRead', {
      ...ids(app, conversation),
      userId: auth.userId,
      lastExternalMessageId: last?.external_id ?? null,
      lastFubMessageId: last?.id ?? null,
    });
  });
}

/** The caller archived (or unarchived) the conversation: inboxAppConversationArchived. */
export async function archive(ctx: AppContext, auth: AuthUser, id: number, archived: boolean) {
  await ctx.db.transaction().execute(async (trx) => {
    const { conversation, app } = await load(trx, auth, id);
    if (!archived && conversation.permanently_archived === 1)
      throw conflict('The conversation is permanently archived and cannot be unarchived');
    await trx
      .updateTable('inbox_conversations')
      .set({ archived: archived ? 1 : 0, updated_at: isoSeconds(ctx.clock.now()) })
      .where('id', '=', conversation.id)
      .execute();
    await queueAppEvent(trx, ctx, app, 'inboxAppConversationArchived', {
      ...ids(app, conversation),
      userId: auth.userId,
      archived,
    });
  });
}
