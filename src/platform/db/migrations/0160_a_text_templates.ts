import type { AnyDb, DialectName } from '../dialect.js';

/**
 * Text-message templates live beside email templates in `templates`, told apart by `kind`: they
 * share visibility, edit rules and merge fields, and action-plan steps name either by one
 * template_id (a text step names a text template). Existing rows are email templates.
 */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('templates')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('email'))
    .execute();
  await db.schema
    .createIndex('templates_account_kind')
    .on('templates')
    .columns(['account_id', 'kind', 'id'])
    .execute();
}
