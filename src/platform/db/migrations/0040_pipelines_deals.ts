import { type AnyDb, type DialectName, idType, primaryId, realType } from '../dialect.js';

/** Pipelines with their stages, deals with their people, users and attachment metadata. */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);
  const real = realType(dialect);

  await db.schema
    .createTable('pipelines')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('order_weight', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pipelines_account')
    .on('pipelines')
    .columns(['account_id', 'order_weight'])
    .execute();

  await db.schema
    .createTable('pipeline_stages')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('pipeline_id', 'integer', (c) =>
      c.notNull().references('pipelines.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('order_weight', 'integer', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('closed_stage', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pipeline_stages_pipeline')
    .on('pipeline_stages')
    .columns(['pipeline_id', 'order_weight'])
    .execute();

  await db.schema
    .createTable('deals')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // Soft-deleted deals outlive a deleted pipeline; live ones keep it from being deleted (checked in code).
    .addColumn('pipeline_id', 'integer', (c) => c.references('pipelines.id').onDelete('set null'))
    .addColumn('stage_id', 'integer', (c) =>
      c.references('pipeline_stages.id').onDelete('set null'),
    )
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('price', real)
    .addColumn('projected_close_date', 'text')
    .addColumn('commission_value', real)
    .addColumn('agent_commission', real)
    .addColumn('team_commission', real)
    .addColumn('order_weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('entered_stage_at', 'text', (c) => c.notNull())
    .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('deals_account_id')
    .on('deals')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('deals_account_stage')
    .on('deals')
    .columns(['account_id', 'stage_id'])
    .execute();
  await db.schema
    .createIndex('deals_account_pipeline')
    .on('deals')
    .columns(['account_id', 'pipeline_id'])
    .execute();

  await db.schema
    .createTable('deal_people')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('deal_id', 'integer', (c) => c.notNull().references('deals.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('deal_people_pk', ['deal_id', 'person_id'])
    .execute();
  await db.schema
    .createIndex('deal_people_person')
    .on('deal_people')
    .columns(['person_id', 'deal_id'])
    .execute();

  await db.schema
    .createTable('deal_users')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('deal_id', 'integer', (c) => c.notNull().references('deals.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('deal_users_pk', ['deal_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('deal_users_user')
    .on('deal_users')
    .columns(['user_id', 'deal_id'])
    .execute();

  await db.schema
    .createTable('deal_attachments')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('deal_id', 'integer', (c) => c.notNull().references('deals.id').onDelete('cascade'))
    .addColumn('uri', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer')
    .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('deal_attachments_deal')
    .on('deal_attachments')
    .columns(['account_id', 'deal_id'])
    .execute();
}
