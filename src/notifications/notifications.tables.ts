import type { Generated } from 'kysely';

export type NotificationKind = 'newLead' | 'returningLead';

export interface NotificationsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  person_id: number;
  event_id: number | null;
  kind: NotificationKind;
  title: string;
  message: string;
  read_at: string | null;
  created_at: string;
}

export type JobStatus = 'pending' | 'done' | 'failed';

/** The durable queue of outside work: agent emails and enrichment look-ups. */
export interface LeadJobsTable {
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
    notifications: NotificationsTable;
    lead_jobs: LeadJobsTable;
  }
}
