import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Connected mailboxes. `mailboxes`: a user's IMAP + SMTP settings, the credentials encrypted with
 * the server secret (`secret`), the sync's status and a lease (`locked_by`, `locked_until`) so one
 * worker at a time holds the mailbox's connection; `next_attempt_at` and `failures` back off
 * after errors. `mailbox_folders`: per folder, the UIDVALIDITY and the highest UID filed, where a
 * sync resumes. Emails gain `message_id` and `thread_id` (the thread's first Message-ID) so a
 * message is filed once per person and shown as a conversation, `html_body` (sanitised) and
 * `mailbox_id`.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('mailboxes')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('auth_kind', 'text', (c) => c.notNull().defaultTo('password'))
    .addColumn('imap_host', 'text', (c) => c.notNull())
    .addColumn('imap_port', 'integer', (c) => c.notNull())
    .addColumn('imap_secure', 'integer', (c) => c.notNull())
    .addColumn('imap_username', 'text', (c) => c.notNull())
    .addColumn('smtp_host', 'text', (c) => c.notNull())
    .addColumn('smtp_port', 'integer', (c) => c.notNull())
    .addColumn('smtp_secure', 'integer', (c) => c.notNull())
    .addColumn('smtp_username', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('last_sync_at', 'text')
    .addColumn('synced_since', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mailboxes_user')
    .on('mailboxes')
    .columns(['account_id', 'user_id'])
    .execute();
  await db.schema.createIndex('mailboxes_due').on('mailboxes').column('next_attempt_at').execute();

  await db.schema
    .createTable('mailbox_folders')
    .addColumn('mailbox_id', 'integer', (c) =>
      c.notNull().references('mailboxes.id').onDelete('cascade'),
    )
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('uid_validity', 'text', (c) => c.notNull())
    .addColumn('last_uid', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('mailbox_folders_pk', ['mailbox_id', 'role'])
    .execute();

  await db.schema.alterTable('emails').addColumn('message_id', 'text').execute();
  await db.schema.alterTable('emails').addColumn('thread_id', 'text').execute();
  await db.schema.alterTable('emails').addColumn('html_body', 'text').execute();
  await db.schema
    .alterTable('emails')
    .addColumn('mailbox_id', 'integer', (c) => c.references('mailboxes.id').onDelete('set null'))
    .execute();
  // A message is on a person's timeline once, however often and from whichever mailbox it is seen.
  await db.schema
    .createIndex('emails_message')
    .on('emails')
    .columns(['account_id', 'person_id', 'message_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('emails_thread')
    .on('emails')
    .columns(['account_id', 'thread_id'])
    .execute();
}
