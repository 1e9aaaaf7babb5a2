import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('rate_limit_usage')
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('context', 'text', (c) => c.notNull())
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('limited', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('rate_limit_usage_pk', ['system', 'hour', 'context'])
    .execute();
  await db.schema
    .createIndex('rate_limit_usage_hour')
    .on('rate_limit_usage')
    .column('hour')
    .execute();

  await db.schema
    .createTable('rate_limit_overrides')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('system', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tier', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('context', 'text', (c) => c.notNull())
    .addColumn('limit_value', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rate_limit_overrides_scope')
    .unique()
    .on('rate_limit_overrides')
    .columns(['system', 'tier', 'context'])
    .execute();
}
