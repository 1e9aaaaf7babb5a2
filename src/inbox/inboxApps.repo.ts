import type { Insertable, Selectable } from 'kysely';
import type { DbOrTrx } from '../platform/db/database.js';
import type { AuthUser } from '../platform/http/auth-user.js';
import { canUseInboxApp } from '../access/inboxApps.js';
import { onlyVisiblePeople } from '../access/visibility.js';
import type {
  InboxAppsTable,
  InboxConversationsTable,
  InboxMessagesTable,
  InboxParticipantsTable,
} from './inboxApps.tables.js';
import './inboxApps.tables.js';
import '../accounts/webhooks/webhooks.tables.js';

export type InboxAppRow = Selectable<InboxAppsTable>;
export type ConversationRow = Selectable<InboxConversationsTable>;
export type MessageRow = Selectable<InboxMessagesTable> & {
  external_conversation_id: string;
  conversation_subject: string;
};
export type ParticipantRow = Selectable<InboxParticipantsTable>;

/** The installations the caller may act as and read (see access/inboxApps.ts). */
export function appsQuery(db: DbOrTrx, auth: AuthUser) {
  return db
    .selectFrom('inbox_apps')
    .selectAll('inbox_apps')
    .where('inbox_apps.account_id', '=', auth.accountId)
    .where((eb) => canUseInboxApp(eb, auth));
}

export function findApp(db: DbOrTrx, auth: AuthUser, id: number) {
  return appsQuery(db, auth).where('inbox_apps.id', '=', id).executeTakeFirst();
}

export async function insertApp(db: DbOrTrx, values: Insertable<InboxAppsTable>) {
  const { id } = await db
    .insertInto('inbox_apps')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The webhooks row that carries an installation's deliveries (hidden from /v1/webhooks). */
export function subscriptionOf(db: DbOrTrx, appId: number) {
  return db
    .selectFrom('webhooks')
    .select(['id', 'status'])
    .where('inbox_app_id', '=', appId)
    .executeTakeFirst();
}

export async function insertSubscription(db: DbOrTrx, app: InboxAppRow, at: string) {
  await db
    .insertInto('webhooks')
    .values({
      account_id: app.account_id,
      system: app.system,
      event: 'inboxApp',
      url: app.subscription_url,
      status: 'Active',
      created_at: at,
      updated_at: at,
      failing_since: null,
      locked_by: null,
      locked_until: null,
      inbox_app_id: app.id,
    })
    .execute();
}

export function conversationOf(db: DbOrTrx, app: InboxAppRow, externalId: string) {
  return db
    .selectFrom('inbox_conversations')
    .selectAll()
    .where('inbox_app_id', '=', app.id)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export async function insertConversation(
  db: DbOrTrx,
  values: Insertable<InboxConversationsTable>,
): Promise<number> {
  const { id } = await db
    .insertInto('inbox_conversations')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

function messagesBase(db: DbOrTrx) {
  return db
    .selectFrom('inbox_messages')
    .innerJoin('inbox_conversations as c', 'c.id', 'inbox_messages.conversation_id')
    .selectAll('inbox_messages')
    .select(['c.external_id as external_conversation_id', 'c.subject as conversation_subject']);
}

/** A message of an installation, by the app's id or Hearth's. */
export function messageOf(
  db: DbOrTrx,
  app: InboxAppRow,
  ref: { externalId?: string; id?: number },
) {
  let query = messagesBase(db).where('inbox_messages.inbox_app_id', '=', app.id);
  if (ref.externalId !== undefined)
    query = query.where('inbox_messages.external_id', '=', ref.externalId);
  if (ref.id !== undefined) query = query.where('inbox_messages.id', '=', ref.id);
  return query.executeTakeFirst();
}

export async function insertMessage(db: DbOrTrx, values: Insertable<InboxMessagesTable>) {
  const { id } = await db
    .insertInto('inbox_messages')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export function participantsOf(db: DbOrTrx, conversationId: number) {
  return db
    .selectFrom('inbox_participants')
    .selectAll()
    .where('conversation_id', '=', conversationId);
}

export function participantById(db: DbOrTrx, conversationId: number, id: number) {
  return participantsOf(db, conversationId).where('id', '=', id).executeTakeFirstOrThrow();
}

/** Conversations of the people the caller sees (the one visibility rule). */
export function visibleConversations(db: DbOrTrx, auth: AuthUser) {
  return onlyVisiblePeople(
    db
      .selectFrom('inbox_conversations')
      .selectAll('inbox_conversations')
      .where('inbox_conversations.account_id', '=', auth.accountId),
    db,
    auth,
    'inbox_conversations.person_id',
  );
}

/** Messages and notes of the people the caller sees. */
export function visibleMessages(db: DbOrTrx, auth: AuthUser) {
  return onlyVisiblePeople(
    messagesBase(db).where('inbox_messages.account_id', '=', auth.accountId),
    db,
    auth,
    'inbox_messages.person_id',
  );
}

export function messageById(db: DbOrTrx, id: number) {
  return messagesBase(db).where('inbox_messages.id', '=', id).executeTakeFirstOrThrow();
}

/** Conversations of the people the caller sees, narrowed by person and installation. */
export function conversationsFor(
  db: DbOrTrx,
  auth: AuthUser,
  filter: { personId?: number; inboxAppId?: number },
) {
  let query = visibleConversations(db, auth);
  if (filter.personId !== undefined)
    query = query.where('inbox_conversations.person_id', '=', filter.personId);
  if (filter.inboxAppId !== undefined)
    query = query.where('inbox_conversations.inbox_app_id', '=', filter.inboxAppId);
  return query;
}

/** Messages and notes the caller sees, narrowed by person, conversation and installation. */
export function messagesFor(
  db: DbOrTrx,
  auth: AuthUser,
  filter: { personId?: number; conversationId?: number; inboxAppId?: number },
) {
  let query = visibleMessages(db, auth);
  if (filter.personId !== undefined)
    query = query.where('inbox_messages.person_id', '=', filter.personId);
  if (filter.conversationId !== undefined)
    query = query.where('inbox_messages.conversation_id', '=', filter.conversationId);
  if (filter.inboxAppId !== undefined)
    query = query.where('inbox_messages.inbox_app_id', '=', filter.inboxAppId);
  return query;
}

export function visibleConversation(db: DbOrTrx, auth: AuthUser, id: number) {
  return visibleConversations(db, auth).where('inbox_conversations.id', '=', id).executeTakeFirst();
}
