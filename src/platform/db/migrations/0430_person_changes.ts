import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Issue 31: `person_changes` is the timeline's record of a person's stage and assigned agent
 * changing (who, when, from, to; names kept as they were then); `import_warnings` lists the rows
 * an import took in with a substitute (an unknown stage or agent) instead of refusing them.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('person_changes')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('from_value', 'text')
    .addColumn('to_value', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('person_changes_person')
    .on('person_changes')
    .columns(['account_id', 'person_id', 'id'])
    .execute();

  await db.schema
    .createTable('import_warnings')
    .addColumn('import_id', 'integer', (c) =>
      c.notNull().references('imports.id').onDelete('cascade'),
    )
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('import_warnings_import_row')
    .on('import_warnings')
    .columns(['import_id', 'row'])
    .execute();
}
