import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../platform/context.js';
import type { Trx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { badRequest, conflict, forbidden, notFound } from '../platform/http/errors.js';
import { toBool } from '../platform/http/schemas.js';
import { assertPersonVisible } from '../access/visibility.js';
import { touchLastActivity } from '../contacts/people/people.activity.js';
import { emptyPersonState } from '../contacts/people/people.state.js';
import { findMatchingPerson } from '../contacts/people/people.matching.js';
import { createPerson } from '../contacts/people/people.service.js';
import { toEmails, toPhones } from '../contacts/people/people.input.js';
import { findTeam } from '../leads/teams/teams.repo.js';
import { assertAccountUsers } from '../accounts/users/userLists.js';
import { isoSeconds } from '../platform/time.js';
import { checkAttachments, checkRichObjects } from './inboxAttachments.js';
import type { MessageBody, NoteBody, OwnerRef, PersonRef, Sender } from './inboxApps.schemas.js';
import {
  type ConversationRow,
  conversationOf,
  type InboxAppRow,
  insertConversation,
  insertMessage,
} from './inboxApps.repo.js';

type ContactList = Static<typeof PersonRef>['emails'];
const list = (one: string | undefined, many: ContactList) => [
  ...(one ? [one] : []),
  ...(typeof many === 'string'
    ? [many]
    : (many ?? []).map((v) => (typeof v === 'string' ? v : v.value))),
];

/** 403 unless the installation is active: a deactivated one takes no more writes. */
export function assertActive(app: InboxAppRow): void {
  if (app.status !== 'Active')
    throw forbidden(`Inbox app ${app.id} is deactivated; install it again to use it`);
}

/**
 * The person of a new conversation: `id` (the caller must see them), else the person matching an
 * email or phone, else a new person owned by the conversation's owner.
 */
async function resolvePerson(
  trx: Trx,
  auth: AuthUser,
  ref: Static<typeof PersonRef>,
  ownerUserId: number | null,
  at: string,
): Promise<number> {
  if (ref.id !== undefined) {
    await assertPersonVisible(trx, auth, ref.id);
    return ref.id;
  }
  const emails = toEmails(list(ref.email, ref.emails));
  const phones = toPhones(list(ref.phone, ref.phones));
  const name = ref.name ?? [ref.firstName, ref.lastName].filter(Boolean).join(' ');
  if (!name && emails.length === 0 && phones.length === 0)
    throw badRequest("'person' needs an id, or a name, email or phone", [
      { field: 'person', message: 'empty person' },
    ]);
  const match = await findMatchingPerson(
    trx,
    auth.accountId,
    emails.map((e) => e.value),
    phones.map((p) => p.value),
  );
  if (match) return match.personId;
  const [first = '', ...rest] = name.split(/\s+/);
  const state = {
    ...emptyPersonState(),
    name,
    firstName: ref.firstName ?? first,
    lastName: ref.lastName ?? rest.join(' '),
    source: 'Inbox App',
    assignedUserId: ownerUserId,
    emails,
    phones,
  };
  return createPerson(trx, auth.accountId, state, { createdVia: 'API', at, lastActivity: at });
}

/** The owning inbox of a new conversation: a user (a user-scoped app: only its user) or a team inbox. */
async function resolveOwner(
  trx: Trx,
  app: InboxAppRow,
  owner: Static<typeof OwnerRef> | undefined,
): Promise<{ userId: number | null; teamId: number | null }> {
  const isTeam = owner?.teamInboxId !== undefined || /^team/i.test(owner?.type ?? '');
  const id = owner?.teamInboxId ?? owner?.userId ?? owner?.id ?? (isTeam ? undefined : app.user_id);
  if (id === undefined || id === null)
    throw badRequest(
      "The first message of a conversation names its 'owner' (a user or team inbox)",
      [{ field: 'owner', message: 'required on the first message' }],
    );
  if (isTeam) {
    if (app.user_id !== null)
      throw forbidden('Only an inbox app installed for the whole account adds to team inboxes');
    if (!(await findTeam(trx, app.account_id, id)))
      throw badRequest(`owner: no team inbox ${id} in this account; see GET /v1/teamInboxes`);
    return { userId: null, teamId: id };
  }
  if (app.user_id !== null && id !== app.user_id)
    throw forbidden(`This inbox app serves user ${app.user_id}'s inbox only`);
  await assertAccountUsers(trx, app.account_id, [id], 'owner');
  return { userId: id, teamId: null };
}

/** Checks a sender's user or person and answers what is stored. */
async function senderOf(trx: Trx, auth: AuthUser, sender: Static<typeof Sender>) {
  if (sender.userId !== undefined)
    await assertAccountUsers(trx, auth.accountId, [sender.userId], 'sender.userId');
  if (sender.personId !== undefined) await assertPersonVisible(trx, auth, sender.personId);
  return JSON.stringify({ ...sender, isAutomation: toBool(sender.isAutomation) ?? false });
}

async function openConversation(
  trx: Trx,
  auth: AuthUser,
  app: InboxAppRow,
  body: Static<typeof MessageBody>,
  at: string,
): Promise<ConversationRow> {
  const found = await conversationOf(trx, app, body.externalConversationId);
  if (found) {
    if (body.owner)
      throw conflict("A conversation's owner is set by its first message and cannot change");
    if (body.person)
      throw conflict(
        "The conversation's person was matched to a person of the account at its first message and cannot change (PUT the conversation for its subject)",
      );
    if (body.subject !== undefined && body.subject !== found.subject)
      await trx
        .updateTable('inbox_conversations')
        .set({ subject: body.subject, updated_at: at })
        .where('id', '=', found.id)
        .execute();
    return found;
  }
  if (!body.person)
    throw badRequest("The first message of a conversation names its 'person'", [
      { field: 'person', message: 'required on the first message' },
    ]);
  const owner = await resolveOwner(trx, app, body.owner);
  const personId = await resolvePerson(trx, auth, body.person, owner.userId, at);
  await insertConversation(trx, {
    account_id: app.account_id,
    inbox_app_id: app.id,
    external_id: body.externalConversationId,
    person_id: personId,
    owner_user_id: owner.userId,
    owner_team_id: owner.teamId,
    assigned_user_id: null,
    assigned_team_id: null,
    subject: body.subject ?? '',
    created_at: at,
    updated_at: at,
  });
  return (await conversationOf(trx, app, body.externalConversationId))!;
}

/** POST /v1/inboxApps/:id/message: adds a message, opening the conversation on its first one. */
export async function postMessage(
  ctx: AppContext,
  auth: AuthUser,
  app: InboxAppRow,
  body: Static<typeof MessageBody>,
): Promise<number> {
  assertActive(app);
  const attachments = JSON.stringify(checkAttachments(body.attachments));
  const richObjects = JSON.stringify(checkRichObjects(body.richObjects));
  const at = isoSeconds(ctx.clock.now());
  return ctx.db.transaction().execute(async (trx) => {
    const conversation = await openConversation(trx, auth, app, body, at);
    const taken = await trx
      .selectFrom('inbox_messages')
      .select('id')
      .where('inbox_app_id', '=', app.id)
      .where('external_id', '=', body.externalMessageId)
      .executeTakeFirst();
    if (taken)
      throw conflict(
        `Message '${body.externalMessageId}' exists (id ${taken.id}); PUT /v1/inboxApps/${app.id}/message updates its delivery status`,
      );
    const id = await insertMessage(trx, {
      account_id: app.account_id,
      conversation_id: conversation.id,
      inbox_app_id: app.id,
      person_id: conversation.person_id,
      kind: 'message',
      external_id: body.externalMessageId,
      reply_to_external_id: body.replyToExternalMessageId ?? null,
      message: body.message,
      is_incoming: toBool(body.isIncoming) ? 1 : 0,
      sender: await senderOf(trx, auth, body.sender),
      user_id: body.sender.userId ?? null,
      sent_at: body.sentAt ? isoSeconds(Date.parse(body.sentAt)) : at,
      delivery_status: body.deliveryStatus ?? null,
      delivery_error: body.deliveryStatusErrorMessage ?? null,
      attachments,
      rich_objects: richObjects,
      created_at: at,
      updated_at: at,
    });
    await touchLastActivity(trx, app.account_id, conversation.person_id, at);
    return id;
  });
}

/** POST /v1/inboxApps/:id/note: a note on a conversation, by a user of the account. */
export async function addNote(
  ctx: AppContext,
  app: InboxAppRow,
  body: Static<typeof NoteBody>,
): Promise<number> {
  assertActive(app);
  const at = isoSeconds(ctx.clock.now());
  return ctx.db.transaction().execute(async (trx) => {
    const conversation = await conversationOf(trx, app, body.externalConversationId);
    if (!conversation) throw notFound(`Conversation '${body.externalConversationId}'`);
    if (conversation.permanently_archived === 1)
      throw conflict('The conversation is permanently archived: no more replies or notes');
    await assertAccountUsers(trx, app.account_id, [body.user.id], 'user.id');
    const author = await trx
      .selectFrom('users')
      .select('name')
      .where('id', '=', body.user.id)
      .executeTakeFirstOrThrow();
    return insertMessage(trx, {
      account_id: app.account_id,
      conversation_id: conversation.id,
      inbox_app_id: app.id,
      person_id: conversation.person_id,
      kind: 'note',
      external_id: null,
      reply_to_external_id: null,
      message: body.body,
      is_incoming: 0,
      sender: JSON.stringify({ userId: body.user.id, name: author.name }),
      user_id: body.user.id,
      sent_at: at,
      delivery_status: null,
      delivery_error: null,
      created_at: at,
      updated_at: at,
    });
  });
}
