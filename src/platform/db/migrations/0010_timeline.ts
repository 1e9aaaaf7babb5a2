import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * The contact timeline: notes (with reactions and threaded replies), calls, text messages,
 * logged emails, tasks, appointments (with invitees) and people relationships. Every table that
 * hangs off a person cascades on the person's delete, so deleting a person removes their timeline
 * in the same statement (and transaction). Calls allow person_id NULL: an unknown caller.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);
  const account = (c: any) => c.notNull().references('accounts.id').onDelete('cascade'); // eslint-disable-line @typescript-eslint/no-explicit-any
  const person = (c: any) => c.notNull().references('people.id').onDelete('cascade'); // eslint-disable-line @typescript-eslint/no-explicit-any

  await db.schema
    .createTable('notes')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', account)
    .addColumn('person_id', 'integer', person)
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_html', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by_id', 'integer')
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by_id', 'integer')
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notes_person')
    .on('notes')
    .columns(['account_id', 'person_id', 'id'])
    .execute();

  // Reactions and threaded replies point at a record by (ref_type, ref_id); for notes the
  // note_id column carries the foreign key so they go with the note (and so with the person).
  await db.schema
    .createTable('reactions')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', account)
    .addColumn('ref_type', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'integer', (c) => c.notNull())
    .addColumn('note_id', 'integer', (c) => c.references('notes.id').onDelete('cascade'))
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reactions_unique')
    .unique()
    .on('reactions')
    .columns(['account_id', 'ref_type', 'ref_id', 'user_id', 'emoji'])
    .execute();

  await db.schema
    .createTable('threaded_replies')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', account)
    .addColumn('ref_type', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'integer', (c) => c.notNull())
    .addColumn('note_id', 'integer', (c) => c.references('notes.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('threaded_replies_ref')
    .on('threaded_replies')
    .columns(['account_id', 'ref_type', 'ref_id', 'id'])
    .execute();

  await db.schema
    .createTable('calls')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', account)
    .addColumn('person_id', 'integer', (c) => c.references('people.id').onDelete('cascade'))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('normalized_phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_incoming', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('outcome', 'text')
    .addColumn('duration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('to_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('from_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('recording_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('system', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('calls_person')
    .on('calls')
    .columns(['account_id', 'person_id', 'id'])
    .execute();
  await db.schema
    .createIndex('calls_phone')
    .on('calls')
    .columns(['account_id', 'normalized_phone'])
    .execute();

  await db.schema
    .createTable('text_messages')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', account)
    .addColumn('person_id', 'integer', person)
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('to_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('from_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_incoming', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('system', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('text_messages_person')
    .on('text_messages')
    .columns(['account_id', 'person_id', 'id'])
    .execute();

  await db.schema
    .createTable('emails')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', account)
    .addColumn('person_id', 'integer', person)
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_html', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('from_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('to_addresses', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('cc_addresses', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('is_incoming', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('system', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('emails_person')
    .on('emails')
    .columns(['account_id', 'person_id', 'id'])
    .execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', account)
    .addColumn('person_id', 'integer', person)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('assigned_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('due_date', 'text')
    .addColumn('due_date_time', 'text')
    .addColumn('is_completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completed_at', 'text')
    .addColumn('created_by_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tasks_person')
    .on('tasks')
    .columns(['account_id', 'person_id', 'id'])
    .execute();
  await db.schema
    .createIndex('tasks_assigned_due')
    .on('tasks')
    .columns(['account_id', 'assigned_user_id', 'is_completed', 'due_date'])
    .execute();

  await db.schema
    .createTable('appointments')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', account)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('start_at', 'text', (c) => c.notNull())
    .addColumn('end_at', 'text', (c) => c.notNull())
    .addColumn('all_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type_id', 'integer')
    .addColumn('origin', 'text', (c) => c.notNull().defaultTo('hearth'))
    .addColumn('created_by_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('appointments_account_start')
    .on('appointments')
    .columns(['account_id', 'start_at'])
    .execute();

  await db.schema
    .createTable('appointment_invitees')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('appointment_id', 'integer', (c) =>
      c.notNull().references('appointments.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.references('people.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('appointment_invitees_appt')
    .on('appointment_invitees')
    .columns(['appointment_id'])
    .execute();
  await db.schema
    .createIndex('appointment_invitees_person')
    .on('appointment_invitees')
    .columns(['account_id', 'person_id'])
    .execute();
  await db.schema
    .createIndex('appointment_invitees_user')
    .on('appointment_invitees')
    .columns(['account_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('people_relationships')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', account)
    .addColumn('person_id', 'integer', person)
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('emails', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('phones', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('addresses', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('people_relationships_person')
    .on('people_relationships')
    .columns(['account_id', 'person_id', 'id'])
    .execute();
}
