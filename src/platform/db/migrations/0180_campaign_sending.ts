import { sql } from 'kysely';
import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Built-in campaign email. `em_sends`: one send of a campaign (its subject and body as they were
 * when it was asked for); at most one unfinished send per campaign. `em_send_recipients`: one row
 * per recipient, which is also the delivery queue: queued → claimed (leased to one worker) →
 * handing (committed just before the message's final dot) → sent | skipped | dropped | bounced.
 * `token` is the recipient's random, unguessable key in the tracking URLs.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('em_sends')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('campaign_id', 'integer', (c) =>
      c.notNull().references('em_campaigns.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('send_at', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('em_sends_one_unfinished')
    .unique()
    .on('em_sends')
    .column('campaign_id')
    .where(sql.ref('status'), '<>', 'done')
    .execute();
  await db.schema
    .createIndex('em_sends_campaign')
    .on('em_sends')
    .columns(['account_id', 'campaign_id', 'id'])
    .execute();

  await db.schema
    .createTable('em_send_recipients')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('send_id', 'integer', (c) =>
      c.notNull().references('em_sends.id').onDelete('cascade'),
    )
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('claim', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('em_send_recipients_token')
    .unique()
    .on('em_send_recipients')
    .column('token')
    .execute();
  await db.schema
    .createIndex('em_send_recipients_person')
    .unique()
    .on('em_send_recipients')
    .columns(['send_id', 'person_id'])
    .execute();
  await db.schema
    .createIndex('em_send_recipients_due')
    .on('em_send_recipients')
    .columns(['status', 'run_at', 'id'])
    .execute();
  await db.schema
    .createIndex('em_send_recipients_of_person')
    .on('em_send_recipients')
    .columns(['person_id', 'send_id'])
    .execute();
}
