import { sql } from 'kysely';
import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/** Email templates, action plans with ordered steps, plans applied to people and the steps they ran. */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);

  await db.schema
    .createTable('templates')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_shared', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('templates_account_id')
    .on('templates')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('action_plans')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('action_plans_account_id')
    .on('action_plans')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('action_plan_steps')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('action_plan_id', 'integer', (c) =>
      c.notNull().references('action_plans.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('delay_days', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('task_type', 'text')
    .addColumn('task_name', 'text')
    // No cascade: a template an action plan sends from cannot be deleted (the API answers 409).
    .addColumn('template_id', 'integer', (c) => c.references('templates.id'))
    .execute();
  await db.schema
    .createIndex('action_plan_steps_plan')
    .on('action_plan_steps')
    .columns(['action_plan_id', 'position', 'id'])
    .execute();
  await db.schema
    .createIndex('action_plan_steps_template')
    .on('action_plan_steps')
    .column('template_id')
    .execute();

  await db.schema
    .createTable('action_plans_people')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('action_plan_id', 'integer', (c) =>
      c.notNull().references('action_plans.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    /** When the next step falls due; null once nothing is left to run. */
    .addColumn('next_due_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('action_plans_people_person')
    .on('action_plans_people')
    .columns(['account_id', 'person_id', 'id'])
    .execute();
  await db.schema
    .createIndex('action_plans_people_plan')
    .on('action_plans_people')
    .columns(['account_id', 'action_plan_id', 'id'])
    .execute();
  await db.schema
    .createIndex('action_plans_people_due')
    .on('action_plans_people')
    .columns(['status', 'next_due_at'])
    .execute();
  // A person is on a given plan at most once at a time (a completed run may be followed by a new one).
  await sql`create unique index action_plans_people_active on action_plans_people (person_id, action_plan_id) where status in ('Running', 'Paused')`.execute(
    db,
  );

  await db.schema
    .createTable('action_plan_step_runs')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('plan_person_id', 'integer', (c) =>
      c.notNull().references('action_plans_people.id').onDelete('cascade'),
    )
    .addColumn('step_id', 'integer', (c) =>
      c.notNull().references('action_plan_steps.id').onDelete('cascade'),
    )
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('executed_at', 'text', (c) => c.notNull())
    .addColumn('task_id', 'integer')
    .addColumn('email_id', 'integer')
    // The exactly-once guarantee: a step runs for a person-plan in the same transaction that inserts this row.
    .addUniqueConstraint('action_plan_step_runs_once', ['plan_person_id', 'step_id'])
    .execute();
  await db.schema
    .createIndex('action_plan_step_runs_step')
    .on('action_plan_step_runs')
    .column('step_id')
    .execute();
}
