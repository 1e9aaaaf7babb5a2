import type { AppContext } from '../context.js';
import type { AuthUser } from '../http/auth.js';
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
