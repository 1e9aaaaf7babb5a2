import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/** Email marketing: campaigns (one per origin + originId in an account) and their recipients' events. */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);

  await db.schema
    .createTable('em_campaigns')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('origin_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // origin + originId name one campaign of the sending system: the database enforces it under concurrency.
  await db.schema
    .createIndex('em_campaigns_origin')
    .unique()
    .on('em_campaigns')
    .columns(['account_id', 'origin', 'origin_id'])
    .execute();
  await db.schema
    .createIndex('em_campaigns_account_id')
    .on('em_campaigns')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('em_events')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('campaign_id', 'integer', (c) =>
      c.notNull().references('em_campaigns.id').onDelete('cascade'),
    )
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('system', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('em_events_account_id')
    .on('em_events')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('em_events_campaign')
    .on('em_events')
    .columns(['account_id', 'campaign_id', 'type', 'person_id'])
    .execute();
  await db.schema
    .createIndex('em_events_person')
    .on('em_events')
    .columns(['account_id', 'person_id', 'id'])
    .execute();
  await db.schema
    .createIndex('em_events_type')
    .on('em_events')
    .columns(['account_id', 'type', 'id'])
    .execute();
}
