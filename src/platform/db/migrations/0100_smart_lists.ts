import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Smart lists: named, saved people searches. `filters` is the JSON text of the GET /v1/people
 * filters the list applies; `user_id` owns the list, `is_shared` shows it to the whole account.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('smart_lists')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('is_shared', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('smart_lists_account_id')
    .on('smart_lists')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('smart_lists_account_user')
    .on('smart_lists')
    .columns(['account_id', 'user_id', 'id'])
    .execute();
}
