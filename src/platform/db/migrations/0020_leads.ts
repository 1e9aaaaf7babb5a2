import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/** Lead ingestion: event records, dedup identity keys, groups, lead flows, notifications, job queue, social profiles. */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);

  await db.schema
    .createTable('lead_events')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('system', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('note_id', 'integer')
    .addColumn('property', 'text')
    .addColumn('property_search', 'text')
    .addColumn('campaign', 'text')
    .addColumn('page_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('page_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('page_referrer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('page_duration', 'integer')
    .addColumn('source_url', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('lead_events_account_id')
    .on('lead_events')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('lead_events_person')
    .on('lead_events')
    .columns(['account_id', 'person_id', 'id'])
    .execute();
  await db.schema
    .createIndex('lead_events_account_type')
    .on('lead_events')
    .columns(['account_id', 'type', 'id'])
    .execute();

  // One row per email/phone a lead was created with: the UNIQUE index is what makes concurrent
  // posts of the same new lead collapse into one person.
  await db.schema
    .createTable('lead_identity_keys')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('lead_identity_keys_unique')
    .unique()
    .on('lead_identity_keys')
    .columns(['account_id', 'kind', 'value'])
    .execute();
  await db.schema
    .createIndex('lead_identity_keys_person')
    .on('lead_identity_keys')
    .column('person_id')
    .execute();

  await db.schema
    .createTable('user_groups')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('distribution', 'text', (c) => c.notNull())
    .addColumn('rotation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_groups_account_name')
    .unique()
    .on('user_groups')
    .columns(['account_id', 'name'])
    .execute();
  await db.schema
    .createTable('user_group_members')
    .addColumn('group_id', 'integer', (c) =>
      c.notNull().references('user_groups.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_group_members_unique')
    .unique()
    .on('user_group_members')
    .columns(['group_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('lead_flows')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('assigned_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('group_id', 'integer', (c) => c.references('user_groups.id').onDelete('set null'))
    .addColumn('action_plan_id', 'integer')
    .addColumn('stage_id', 'integer', (c) => c.references('stages.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('lead_flows_account_source')
    .unique()
    .on('lead_flows')
    .columns(['account_id', 'source_key'])
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'integer', (c) => c.references('lead_events.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_user')
    .on('notifications')
    .columns(['user_id', 'id'])
    .execute();

  // Durable queue of outside work (agent emails, enrichment lookups), never done inside a request.
  await db.schema
    .createTable('lead_jobs')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('lead_jobs_due')
    .on('lead_jobs')
    .columns(['kind', 'status', 'run_at'])
    .execute();

  await db.schema
    .createTable('person_social_profiles')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('person_social_profiles_unique')
    .unique()
    .on('person_social_profiles')
    .columns(['person_id', 'network', 'url'])
    .execute();
}
