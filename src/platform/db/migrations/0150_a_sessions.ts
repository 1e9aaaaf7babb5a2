import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * People in the browser: users get a password (scrypt, never in clear) and a deactivation time;
 * sign-ins create server-side sessions (the cookie holds a random id, only its SHA-256 is stored);
 * failed sign-ins are counted per email and per address (both hashed) to throttle guessing.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('users').addColumn('deleted_at', 'text').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // ISO 8601 with milliseconds. Idle expiry counts from last_used_at; expires_at is absolute.
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('sign_in_failures')
    .addColumn('id', id, primaryId(dialect))
    // SHA-256 of "email:<address>" or "ip:<address>": who was guessed at, never in clear.
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sign_in_failures_subject')
    .on('sign_in_failures')
    .columns(['subject', 'failed_at'])
    .execute();
  await db.schema
    .createIndex('sign_in_failures_failed_at')
    .on('sign_in_failures')
    .column('failed_at')
    .execute();
}
