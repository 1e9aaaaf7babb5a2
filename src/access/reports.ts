import type { AuthUser } from '../platform/http/auth-user.js';
import { seesWholeAccount } from './roles.js';

/**
 * Whose figures a user's reports hold: Owner and Admin everyone's; an Agent or a Lender only their
 * own row and their own people (assigned to them as agent, or as lender).
 */
export interface ReportScope {
  /** the only user whose row the reports hold; null: every user */
  userId: number | null;
  /** the people the reports count: report_leads' column that must equal userId */
  peopleColumn: 'user_id' | 'lender_id' | null;
}

export function reportScope(auth: AuthUser): ReportScope {
  if (seesWholeAccount(auth)) return { userId: null, peopleColumn: null };
  return { userId: auth.userId, peopleColumn: auth.role === 'Lender' ? 'lender_id' : 'user_id' };
}
