import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Inbox apps: messaging channels installed by an integration, whose conversations and messages
 * appear on a person's timeline.
 * - inbox_apps: one installation (account-wide when user_id is null, else one user's). Replies and
 *   conversation events go to its subscription URL through the webhook delivery machinery: each
 *   installation owns one webhooks row (webhooks.inbox_app_id) that /v1/webhooks never shows.
 * - inbox_conversations: keyed by the app's external id; owned by a user or a team inbox.
 * - inbox_messages: messages (from the app or a Hearth user's reply) and notes of a conversation.
 * - inbox_participants: who else takes part in a conversation.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);
  await db.schema
    .createTable('inbox_apps')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('published_inbox_app_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('installed_by_id', 'integer', (c) => c.notNull())
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('subscription_url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inbox_apps_account').on('inbox_apps').column('account_id').execute();
  await db.schema.alterTable('webhooks').addColumn('inbox_app_id', 'integer').execute();

  await db.schema
    .createTable('inbox_conversations')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('inbox_app_id', 'integer', (c) =>
      c.notNull().references('inbox_apps.id').onDelete('cascade'),
    )
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('owner_user_id', 'integer')
    .addColumn('owner_team_id', 'integer')
    .addColumn('assigned_user_id', 'integer')
    .addColumn('assigned_team_id', 'integer')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('permanently_archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inbox_conversations_external')
    .unique()
    .on('inbox_conversations')
    .columns(['inbox_app_id', 'external_id'])
    .execute();
  await db.schema
    .createIndex('inbox_conversations_person')
    .on('inbox_conversations')
    .columns(['account_id', 'person_id'])
    .execute();

  await db.schema
    .createTable('inbox_messages')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('conversation_id', 'integer', (c) =>
      c.notNull().references('inbox_conversations.id').onDelete('cascade'),
    )
    .addColumn('inbox_app_id', 'integer', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('reply_to_external_id', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('is_incoming', 'integer', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('delivery_status', 'text')
    .addColumn('delivery_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inbox_messages_external')
    .unique()
    .on('inbox_messages')
    .columns(['inbox_app_id', 'external_id'])
    .execute();
  await db.schema
    .createIndex('inbox_messages_person')
    .on('inbox_messages')
    .columns(['account_id', 'person_id', 'id'])
    .execute();
  await db.schema
    .createIndex('inbox_messages_conversation')
    .on('inbox_messages')
    .columns(['conversation_id', 'id'])
    .execute();

  await db.schema
    .createTable('inbox_participants')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('conversation_id', 'integer', (c) =>
      c.notNull().references('inbox_conversations.id').onDelete('cascade'),
    )
    .addColumn('person_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('relationship_id', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('is_automation', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inbox_participants_conversation')
    .on('inbox_participants')
    .columns(['conversation_id', 'id'])
    .execute();
}
