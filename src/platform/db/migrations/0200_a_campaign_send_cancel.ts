import type { AnyDb } from '../dialect.js';

/**
 * Built-in campaign email, cancel and bounces: a send remembers when and by whom it was cancelled
 * (its unsent recipients become `cancelled`); bounce reports (DSNs) find the recipient by the
 * address a message went to.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('em_sends').addColumn('cancelled_at', 'text').execute();
  await db.schema
    .alterTable('em_sends')
    .addColumn('cancelled_by', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('em_send_recipients_email')
    .on('em_send_recipients')
    .columns(['email', 'send_id'])
    .execute();
}
