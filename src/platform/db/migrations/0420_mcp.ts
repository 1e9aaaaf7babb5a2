import { sql } from 'kysely';
import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * AI assistants through MCP (issue 32):
 * - oauth_registrations: clients that registered themselves (RFC 7591) and no user has yet
 *   allowed. They belong to no account until the first consent moves them into oauth_clients
 *   (`dynamic` = 1) of the consenting user's account.
 * - oauth_codes.resource / oauth_tokens.resource: the RFC 8707 resource a token was issued for
 *   (the /mcp URL), null for tokens of the REST API.
 * - mcp_tool_calls: the audit trail of every tool call (who, through which assistant, what).
 *   No foreign key to oauth_clients: the trail outlives a revoked assistant.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);
  await db.schema
    .createTable('oauth_registrations')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('identifier', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create index oauth_registrations_created on oauth_registrations (created_at)`.execute(
    db,
  );
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('dynamic', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('oauth_codes').addColumn('resource', 'text').execute();
  await db.schema.alterTable('oauth_tokens').addColumn('resource', 'text').execute();

  await db.schema
    .createTable('mcp_tool_calls')
    .addColumn('id', id, primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // null when the assistant authenticated with an API key.
    .addColumn('client_id', 'integer')
    .addColumn('client_name', 'text')
    .addColumn('tool', 'text', (c) => c.notNull())
    // JSON of the arguments, cut to a few kilobytes.
    .addColumn('arguments', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create index mcp_tool_calls_account on mcp_tool_calls (account_id, id)`.execute(db);
}
