import type { AnyDb, DialectName } from '../dialect.js';

/**
 * Inbox app messages keep what the app sent with them: `attachments` (JSON: [{filename, url,
 * mimeType}], files hosted by the app at https addresses Hearth never fetches) and
 * `rich_objects` (JSON: [url]). Existing messages had none.
 */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('inbox_messages')
    .addColumn('attachments', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('inbox_messages')
    .addColumn('rich_objects', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
