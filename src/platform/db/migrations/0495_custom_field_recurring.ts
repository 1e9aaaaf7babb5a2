import type { AnyDb } from '../dialect.js';

/**
 * A date custom field that comes back every year (a birthday, an anniversary): the real API's
 * `isRecurring`, which clients send on custom fields (issue 33, point 4).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('custom_fields')
    .addColumn('is_recurring', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
