import { type AnyDb, type DialectName, idType, primaryId, realType } from '../dialect.js';

export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);

  await db.schema
    .createTable('accounts')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('users_account_email')
    .unique()
    .on('users')
    .columns(['account_id', 'email'])
    .execute();

  await db.schema
    .createTable('systems')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('stages')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('order_weight', 'integer', (c) => c.notNull())
    .addColumn('is_protected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stages_account_name')
    .unique()
    .on('stages')
    .columns(['account_id', 'name'])
    .execute();

  await db.schema
    .createTable('people')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_activity', 'text')
    .addColumn('created_via', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('stage_id', 'integer', (c) => c.references('stages.id').onDelete('set null'))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price', realType(dialect))
    .addColumn('background', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('assigned_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('assigned_lender_id', 'integer', (c) =>
      c.references('users.id').onDelete('set null'),
    )
    .addColumn('contacted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('emails', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('phones', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('addresses', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('collaborators', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .createIndex('people_account_id')
    .on('people')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('people_account_assigned')
    .on('people')
    .columns(['account_id', 'assigned_user_id'])
    .execute();
  await db.schema
    .createIndex('people_account_lender')
    .on('people')
    .columns(['account_id', 'assigned_lender_id'])
    .execute();
  await db.schema
    .createIndex('people_account_stage')
    .on('people')
    .columns(['account_id', 'stage_id'])
    .execute();
  await db.schema
    .createIndex('people_account_source')
    .on('people')
    .columns(['account_id', 'source'])
    .execute();

  const lookup = async (table: string, column: string) => {
    await db.schema
      .createTable(table)
      .addColumn('account_id', 'integer', (c) => c.notNull())
      .addColumn('person_id', 'integer', (c) =>
        c.notNull().references('people.id').onDelete('cascade'),
      )
      .addColumn(column, column === 'user_id' ? 'integer' : 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex(`${table}_lookup`)
      .on(table)
      .columns(['account_id', column, 'person_id'])
      .execute();
    await db.schema.createIndex(`${table}_person`).on(table).column('person_id').execute();
  };
  await lookup('person_emails', 'email');
  await lookup('person_phones', 'normalized');
  await lookup('person_tags', 'tag');
  await lookup('person_collaborators', 'user_id');

  await db.schema
    .createTable('custom_fields')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('choices', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('order_weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hide_if_empty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('custom_fields_account_name')
    .unique()
    .on('custom_fields')
    .columns(['account_id', 'entity', 'name'])
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('resource_ids', 'text', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('dispatched_at', 'text')
    .execute();
  await db.schema
    .createIndex('outbox_pending')
    .on('outbox')
    .columns(['dispatched_at', 'id'])
    .execute();
  await db.schema
    .createIndex('outbox_account')
    .on('outbox')
    .columns(['account_id', 'id'])
    .execute();
}
