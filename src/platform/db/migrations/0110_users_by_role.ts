import type { AnyDb, DialectName } from '../dialect.js';

/**
 * Every lead without a flow goes to the account owner, looked up by role: without this index SQLite
 * sorted the account's users in a temporary b-tree on each lead.
 */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await db.schema
    .createIndex('users_account_role')
    .on('users')
    .columns(['account_id', 'role', 'id'])
    .execute();
}
