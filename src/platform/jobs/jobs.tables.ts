import type { Generated } from 'kysely';

export type JobStatus = 'pending' | 'done' | 'failed';

/**
 * The one durable queue of background work (agent emails, enrichment look-ups, campaign sends,
 * imports...). The table keeps its historical name `lead_jobs`; `kind` tells the jobs apart.
 */
export interface JobsTable {
  id: Generated<number>;
  account_id: number;
  kind: string;
  payload: string;
  status: JobStatus;
  attempts: Generated<number>;
  run_at: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

declare module '../db/extension-tables.js' {
  interface ExtensionTables {
    lead_jobs: JobsTable;
  }
}
