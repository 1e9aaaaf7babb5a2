import type { AnyDb } from '../dialect.js';

/**
 * Fields real clients send that Hearth kept nowhere (issue 33, point 4): a deal's earnest money
 * due date and possession date (date-only, like projected_close_date) and a task's reminder.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('deals').addColumn('earnest_money_due_date', 'text').execute();
  await db.schema.alterTable('deals').addColumn('possession_date', 'text').execute();
  await db.schema.alterTable('tasks').addColumn('remind_seconds_before', 'integer').execute();
}
