import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Automations (issue 33): an automation is a trigger and ordered actions (JSON, validated by the
 * API's schemas); a run is one person going through one automation. A run's `step` is the index of
 * the next action: each action commits with the step that counts it done, so a retried job neither
 * skips nor repeats one. `outbox.automation_id` marks the events an automation's action caused,
 * which never start that automation again (the loop rule).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);
  await db.schema
    .createTable('automations')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('trigger_type', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    // How far the scheduled scan (dateReached, noContact) has looked.
    .addColumn('scanned_until', 'text')
    .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('automations_account_status')
    .on('automations')
    .columns(['account_id', 'status', 'trigger_type'])
    .execute();

  await db.schema
    .createTable('automation_runs')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('automation_id', 'integer', (c) =>
      c.notNull().references('automations.id').onDelete('cascade'),
    )
    // A run goes with its person: its job then finds nothing to do.
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('wake_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('automation_runs_person')
    .on('automation_runs')
    .columns(['account_id', 'person_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('automation_runs_automation')
    .on('automation_runs')
    .columns(['automation_id', 'status'])
    .execute();
  await db.schema.alterTable('outbox').addColumn('automation_id', 'integer').execute();
}
