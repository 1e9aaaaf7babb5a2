import type { UsersTable } from '../db/database.js';

export type UserRole = UsersTable['role'];

/** Who is calling: set on every authenticated request (src/http/auth.ts). A leaf module. */
export interface AuthUser {
  accountId: number;
  userId: number;
  role: UserRole;
  name: string;
  email: string;
  /** 'session': the web app (a person at a browser); absent for API keys and OAuth tokens. */
  via?: 'session';
}
