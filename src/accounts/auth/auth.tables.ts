import type { Generated } from 'kysely';

/** A signed-in browser: the cookie holds a random id, this row its SHA-256 (migration 0150_a). */
export interface SessionsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  token_hash: string;
  /** ISO 8601 with milliseconds; idle expiry counts from here. */
  last_used_at: string;
  /** Absolute expiry, 14 days after sign-in. */
  expires_at: string;
  created_at: string;
}

/**
 * One sign-in attempt, for throttling (src/accounts/auth/throttle.ts): counted before its password is
 * checked, deleted when it succeeds. subject is the SHA-256 of "email:…" or "ip:…".
 */
export interface SignInFailuresTable {
  id: Generated<number>;
  subject: string;
  failed_at: string;
}

/** A one-time link to choose a password: the first owner's setup link or a reset (0150_b). */
export interface PasswordTokensTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  purpose: 'setup' | 'reset';
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** An invitation to become a user; the user is created when the link is used (0150_b). */
export interface InvitesTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  name: string;
  role: 'Owner' | 'Admin' | 'Agent' | 'Lender';
  invited_by_id: number | null;
  token_hash: string;
  expires_at: string;
  accepted_at: string | null;
  user_id: number | null;
  created_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    sessions: SessionsTable;
    sign_in_failures: SignInFailuresTable;
    password_tokens: PasswordTokensTable;
    invites: InvitesTable;
  }
}
