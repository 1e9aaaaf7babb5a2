import type { Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../platform/context.js';
import type { DbOrTrx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { badRequest, conflict, forbidden, notFound } from '../platform/http/errors.js';
import { toBool } from '../platform/http/schemas.js';
import { assertMayInstallInboxApp } from '../access/inboxApps.js';
import { assertPersonVisible } from '../access/visibility.js';
import { findTeam } from '../leads/teams/teams.repo.js';
import { assertAccountUsers } from '../accounts/users/userLists.js';
import { validateCallbackUrl } from '../accounts/webhooks/callback-url.js';
import { storeSigningKey } from '../accounts/webhooks/signing-keys.js';
import { isoSeconds } from '../platform/time.js';
import type {
  ConversationUpdateBody,
  InstallBody,
  MessageUpdateBody,
  ParticipantBody,
} from './inboxApps.schemas.js';
import {
  conversationOf,
  type InboxAppRow,
  insertApp,
  insertSubscription,
  messageOf,
} from './inboxApps.repo.js';
import { assertActive } from './inboxMessages.service.js';

/** The registered system installing: its key signs the deliveries, so the key must be proven. */
function provenSystem(request: FastifyRequest): { name: string; key: string } {
  const header = request.headers['x-system-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!request.system.name || !key || !request.system.verified)
    throw forbidden(
      'Installing an inbox app requires a registered system (X-System and X-System-Key): deliveries to the subscription URL are signed with its key',
    );
  return { name: request.system.name, key };
}

/** POST /v1/inboxApps/install: an installation and its (hidden) delivery subscription. */
export async function installApp(
  ctx: AppContext,
  request: FastifyRequest,
  body: Static<typeof InstallBody>,
): Promise<number> {
  const auth = request.auth;
  assertMayInstallInboxApp(auth, body.userId);
  const system = provenSystem(request);
  const url = await validateCallbackUrl(body.subscriptionUrl, {
    allowPrivate: ctx.config.webhookAllowPrivate,
  }).catch((err: Error) => {
    throw badRequest(err.message.replace("Field 'url'", "Field 'subscriptionUrl'"), [
      { field: 'subscriptionUrl', message: 'not an allowed callback URL' },
    ]);
  });
  const at = isoSeconds(ctx.clock.now());
  return ctx.db.transaction().execute(async (trx) => {
    if (body.userId !== 0) await assertAccountUsers(trx, auth.accountId, [body.userId], 'userId');
    const values = {
      account_id: auth.accountId,
      published_inbox_app_id: body.publishedInboxAppId,
      user_id: body.userId === 0 ? null : body.userId,
      installed_by_id: auth.userId,
      system: system.name,
      subscription_url: url,
      status: 'Active' as const,
      created_at: at,
      updated_at: at,
    };
    const id = await insertApp(trx, values);
    await insertSubscription(trx, { id, ...values }, at);
    await storeSigningKey(trx, ctx.config, system.name, system.key, at);
    return id;
  });
}

/** DELETE /v1/inboxApps/:id: no more writes, and nothing more is delivered to it. */
export async function deactivateApp(ctx: AppContext, app: InboxAppRow): Promise<void> {
  const at = isoSeconds(ctx.clock.now());
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('inbox_apps')
      .set({ status: 'Deactivated', updated_at: at })
      .where('id', '=', app.id)
      .execute();
    const hooks = trx.selectFrom('webhooks').select('id').where('inbox_app_id', '=', app.id);
    await trx
      .updateTable('webhook_deliveries')
      .set({ state: 'abandoned', finished_at: at })
      .where('webhook_id', 'in', hooks)
      .where('state', '=', 'pending')
      .execute();
    await trx.deleteFrom('webhooks').where('inbox_app_id', '=', app.id).execute();
  });
}

/** PUT /v1/inboxApps/:id/message: a message's delivery status (by the app's id or Hearth's). */
export async function updateDelivery(
  ctx: AppContext,
  app: InboxAppRow,
  body: Static<typeof MessageUpdateBody>,
): Promise<number> {
  assertActive(app);
  if (body.externalMessageId === undefined && body.messageId === undefined)
    throw badRequest("Send 'externalMessageId' or 'messageId'");
  const row = await messageOf(ctx.db, app, {
    externalId: body.externalMessageId,
    id: body.messageId,
  });
  if (!row || row.kind !== 'message')
    throw notFound(`Message ${body.externalMessageId ?? body.messageId}`);
  await ctx.db
    .updateTable('inbox_messages')
    .set({
      delivery_status: body.deliveryStatus,
      delivery_error: body.deliveryStatusErrorMessage ?? null,
      updated_at: isoSeconds(ctx.clock.now()),
    })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

async function requireConversation(trx: DbOrTrx, app: InboxAppRow, externalId: string) {
  const row = await conversationOf(trx, app, externalId);
  if (!row) throw notFound(`Conversation '${externalId}'`);
  return row;
}

/** PUT /v1/inboxApps/:id/conversations/:externalId: subject, archiving, assignment. */
export async function updateConversation(
  ctx: AppContext,
  app: InboxAppRow,
  externalId: string,
  body: Static<typeof ConversationUpdateBody>,
): Promise<void> {
  assertActive(app);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await requireConversation(trx, app, externalId);
    if (body.person)
      throw conflict(
        "The conversation's person was matched to a person of the account at its first message and cannot change",
      );
    const permanently = toBool(body.permanentlyArchived);
    const archived = toBool(body.archived);
    if (row.permanently_archived === 1 && (archived === false || permanently === false))
      throw conflict('The conversation is permanently archived and cannot be unarchived');
    if (body.assignedUserId)
      await assertAccountUsers(trx, app.account_id, [body.assignedUserId], 'assignedUserId');
    if (body.assignedInboxId && !(await findTeam(trx, app.account_id, body.assignedInboxId)))
      throw badRequest(`assignedInboxId: no team inbox ${body.assignedInboxId} in this account`);
    const assignee = (v: number | undefined, current: number | null) =>
      v === undefined ? current : v === 0 ? null : v;
    await trx
      .updateTable('inbox_conversations')
      .set({
        subject: body.subject ?? row.subject,
        archived: permanently || (archived ?? row.archived === 1) ? 1 : 0,
        permanently_archived: permanently || row.permanently_archived === 1 ? 1 : 0,
        assigned_user_id: assignee(body.assignedUserId, row.assigned_user_id),
        assigned_team_id: assignee(body.assignedInboxId, row.assigned_team_id),
        updated_at: isoSeconds(ctx.clock.now()),
      })
      .where('id', '=', row.id)
      .execute();
  });
}

/** POST .../participants: a person, user or relationship of the account, or contact details. */
export async function addParticipant(
  ctx: AppContext,
  auth: AuthUser,
  app: InboxAppRow,
  externalId: string,
  body: Static<typeof ParticipantBody>,
): Promise<number> {
  assertActive(app);
  const ids = [body.personId, body.userId, body.relationshipId].filter((v) => v !== undefined);
  const details = [body.name, body.email, body.phone].some((v) => v);
  if (ids.length > 1 || (ids.length === 1 && details) || (ids.length === 0 && !details))
    throw badRequest('Send one of personId, userId or relationshipId, or a name, email or phone');
  return ctx.db.transaction().execute(async (trx) => {
    const conversation = await requireConversation(trx, app, externalId);
    if (body.personId !== undefined) await assertPersonVisible(trx, auth, body.personId);
    if (body.userId !== undefined)
      await assertAccountUsers(trx, app.account_id, [body.userId], 'userId');
    if (body.relationshipId !== undefined) {
      const rel = await trx
        .selectFrom('people_relationships')
        .select('id')
        .where('account_id', '=', app.account_id)
        .where('id', '=', body.relationshipId)
        .executeTakeFirst();
      if (!rel)
        throw badRequest(`relationshipId: no relationship ${body.relationshipId} in this account`);
    }
    const { id } = await trx
      .insertInto('inbox_participants')
      .values({
        account_id: app.account_id,
        conversation_id: conversation.id,
        person_id: body.personId ?? null,
        user_id: body.userId ?? null,
        relationship_id: body.relationshipId ?? null,
        name: body.name ?? '',
        email: body.email ?? '',
        phone: body.phone ?? '',
        is_automation: toBool(body.isAutomation) ? 1 : 0,
        created_at: isoSeconds(ctx.clock.now()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  });
}

export async function removeParticipant(
  ctx: AppContext,
  app: InboxAppRow,
  externalId: string,
  participantId: number,
): Promise<void> {
  assertActive(app);
  const conversation = await requireConversation(ctx.db, app, externalId);
  const gone = await ctx.db
    .deleteFrom('inbox_participants')
    .where('conversation_id', '=', conversation.id)
    .where('id', '=', participantId)
    .executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw notFound(`Participant ${participantId}`);
}
