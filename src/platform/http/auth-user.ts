import type { UsersTable } from '../db/database.js';

export type UserRole = UsersTable['role'];

/** Who is calling: set on every authenticated request (src/accounts/auth/authenticate.ts). A leaf module. */
export interface AuthUser {
  accountId: number;
  userId: number;
  role: UserRole;
  name: string;
  email: string;
  /** 'session': the web app (a person at a browser); absent for API keys and OAuth tokens. */
  via?: 'session';
  /**
   * The credential that authenticated the request, e.g. `7:session:42` (user 7's session 42):
   * what an Idempotency-Key belongs to. Absent: the user's API key.
   */
  credential?: string;
}
