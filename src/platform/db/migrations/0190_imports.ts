import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * CSV imports of people. `imports` holds each import's options and progress; the uploaded file
 * is kept in `import_chunks` (so any worker can read it, and the API never holds it in memory);
 * `import_errors` is the per-row report; `import_people` the people an import created, which
 * undo removes (a person deleted otherwise takes their row with them).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('on_duplicate', 'text', (c) => c.notNull())
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('encoding', 'text', (c) => c.notNull())
    .addColumn('delimiter', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer')
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text')
    .addColumn('undo_status', 'text')
    .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('imports_account_id')
    .on('imports')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('import_chunks')
    .addColumn('import_id', 'integer', (c) =>
      c.notNull().references('imports.id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', dialect === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_chunks_pk', ['import_id', 'seq'])
    .execute();

  await db.schema
    .createTable('import_errors')
    .addColumn('import_id', 'integer', (c) =>
      c.notNull().references('imports.id').onDelete('cascade'),
    )
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('import_errors_import_row')
    .on('import_errors')
    .columns(['import_id', 'row'])
    .execute();

  await db.schema
    .createTable('import_people')
    .addColumn('import_id', 'integer', (c) =>
      c.notNull().references('imports.id').onDelete('cascade'),
    )
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('import_people_pk', ['import_id', 'person_id'])
    .execute();
  await db.schema
    .createIndex('import_people_person')
    .on('import_people')
    .column('person_id')
    .execute();
}
