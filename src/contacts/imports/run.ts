import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import type { ImportRow } from './imports.repo.js';
import type { ColumnPlan } from './plan.js';

/** Everything a batch needs besides its rows. */
export interface ImportRun {
  ctx: AppContext;
  import: ImportRow;
  auth: AuthUser;
  plan: ColumnPlan;
  /** dry runs only: the emails and phones of the rows read so far (no person was written) */
  seen: Set<string> | null;
}
