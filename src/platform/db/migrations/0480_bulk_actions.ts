import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Issue 31: bulk actions on people run as one job. `bulk_actions` holds each action, its progress
 * and its outcome; `bulk_action_people` the people it acts on, fixed when it was asked for (the
 * "N matching" the user saw). They are worked through in id order; `after_person_id` moves on in
 * the transaction that changed them, so a worker that dies resumes with the first person not done.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('bulk_actions')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('changed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('after_person_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('bulk_actions_account_id')
    .on('bulk_actions')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createTable('bulk_action_people')
    .addColumn('bulk_action_id', 'integer', (c) =>
      c.notNull().references('bulk_actions.id').onDelete('cascade'),
    )
    .addColumn('person_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_action_people_pk', ['bulk_action_id', 'person_id'])
    .execute();
}
