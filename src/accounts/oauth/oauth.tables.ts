import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

/** A registered OAuth client of one account (admin `create-oauth-client`). */
export interface OAuthClientsTable {
  id: Generated<number>;
  account_id: number;
  /** The public `client_id`. */
  identifier: string;
  name: string;
  /** SHA-256 of the client secret; null for public clients. */
  secret_hash: string | null;
  is_public: Flag;
  /** JSON array of exact redirect URIs. */
  redirect_uris: string;
  created_at: string;
  /** 1: an assistant that registered itself (RFC 7591) and was allowed by a user of this account. */
  dynamic: Generated<Flag>;
}

/** A client that registered itself (RFC 7591) and that no user has allowed yet: no account. */
export interface OAuthRegistrationsTable {
  id: Generated<number>;
  identifier: string;
  name: string;
  redirect_uris: string;
  created_at: string;
}

/** A single-use authorization code (10 minutes), bound to client, redirect URI, user and PKCE challenge. */
export interface OAuthCodesTable {
  id: Generated<number>;
  account_id: number;
  client_id: number;
  user_id: number;
  code_hash: string;
  redirect_uri: string;
  redirect_uri_given: Flag;
  /** S256 challenge (base64url SHA-256 of the verifier), or null without PKCE. */
  code_challenge: string | null;
  scope: string;
  /** The RFC 8707 resource the tokens are for (the /mcp URL); null: the REST API. */
  resource: string | null;
  /** ISO 8601 with milliseconds. */
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** One issued access/refresh token pair; every refresh adds a row to the code's family. */
export interface OAuthTokensTable {
  id: Generated<number>;
  account_id: number;
  client_id: number;
  user_id: number;
  code_id: number;
  access_hash: string;
  refresh_hash: string;
  access_expires_at: string;
  refresh_expires_at: string;
  refreshed_at: string | null;
  revoked_at: string | null;
  created_at: string;
  /** The RFC 8707 resource the token is for (the /mcp URL); null: the REST API. */
  resource: string | null;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    oauth_clients: OAuthClientsTable;
    oauth_registrations: OAuthRegistrationsTable;
    oauth_codes: OAuthCodesTable;
    oauth_tokens: OAuthTokensTable;
  }
}
