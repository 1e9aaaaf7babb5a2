import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * OAuth 2.0: registered clients (per account), authorization codes and issued token pairs.
 * Codes, access tokens, refresh tokens and client secrets are stored as SHA-256 hashes only.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);

  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    // The public `client_id` the client sends.
    .addColumn('identifier', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    // null for public clients (they prove themselves with PKCE instead).
    .addColumn('secret_hash', 'text')
    .addColumn('is_public', 'integer', (c) => c.notNull())
    // JSON array of the exact redirect URIs allowed.
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('oauth_clients_account')
    .on('oauth_clients')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('client_id', 'integer', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    // 1 when the authorization request named redirect_uri: the token request must then repeat it.
    .addColumn('redirect_uri_given', 'integer', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('oauth_codes_expires')
    .on('oauth_codes')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('oauth_tokens')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('client_id', 'integer', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The code the chain of refreshes started from: the token family revoked together on reuse.
    .addColumn('code_id', 'integer', (c) =>
      c.notNull().references('oauth_codes.id').onDelete('cascade'),
    )
    .addColumn('access_hash', 'text', (c) => c.notNull().unique())
    .addColumn('refresh_hash', 'text', (c) => c.notNull().unique())
    .addColumn('access_expires_at', 'text', (c) => c.notNull())
    .addColumn('refresh_expires_at', 'text', (c) => c.notNull())
    // Set when the refresh token was exchanged for a new pair (rotation): presenting it again is reuse.
    .addColumn('refreshed_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_tokens_code').on('oauth_tokens').column('code_id').execute();
  await db.schema
    .createIndex('oauth_tokens_refresh_expires')
    .on('oauth_tokens')
    .column('refresh_expires_at')
    .execute();
}
