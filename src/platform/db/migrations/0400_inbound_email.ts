import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Leads by email. `lead_addresses`: the random local parts of the account's address (user_id
 * null) and each user's; a rotated address is deleted, so it stops taking mail. `inbound_emails`:
 * every received message with its raw bytes, kept before the sender is answered; `message_key`
 * (the Message-ID, or a hash of the bytes without one) makes a repeat land once per account.
 * `inbound_historic` (+ `_errors`): mbox uploads, reported as imports are.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const blob = dialect === 'sqlite' ? 'blob' : 'bytea';
  await db.schema
    .createTable('lead_addresses')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('local_part', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('lead_addresses_owner')
    .on('lead_addresses')
    .columns(['account_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('inbound_historic')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer')
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createTable('inbound_historic_errors')
    .addColumn('historic_id', 'integer', (c) =>
      c.notNull().references('inbound_historic.id').onDelete('cascade'),
    )
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inbound_historic_errors_row')
    .on('inbound_historic_errors')
    .columns(['historic_id', 'row'])
    .execute();

  await db.schema
    .createTable('inbound_emails')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('historic_id', 'integer', (c) =>
      c.references('inbound_historic.id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer')
    .addColumn('message_key', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('mail_from', 'text', (c) => c.notNull())
    .addColumn('rcpt_to', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('raw', blob, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('parser', 'text')
    .addColumn('person_id', 'integer', (c) => c.references('people.id').onDelete('set null'))
    .addColumn('event_id', 'integer')
    .addColumn('error', 'text')
    .addColumn('parsed_at', 'text')
    .execute();
  await db.schema
    .createIndex('inbound_emails_message_key')
    .on('inbound_emails')
    .columns(['account_id', 'message_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('inbound_emails_account_status')
    .on('inbound_emails')
    .columns(['account_id', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('inbound_emails_historic')
    .on('inbound_emails')
    .columns(['historic_id', 'seq'])
    .execute();
}
