import type { Generated } from 'kysely';

export type AutomationStatus = 'Active' | 'Inactive';
export type RunStatus = 'Initial' | 'Running' | 'Paused' | 'Completed' | 'Cancelled';

export interface AutomationsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  status: AutomationStatus;
  trigger_type: string;
  /** JSON: the trigger as the API takes it */
  trigger: string;
  /** JSON: the ordered actions as the API takes them */
  actions: string;
  scanned_until: string | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface AutomationRunsTable {
  id: Generated<number>;
  account_id: number;
  automation_id: number;
  person_id: number;
  status: RunStatus;
  /** index of the next action to carry out */
  step: Generated<number>;
  /** end of the wait in progress, if any */
  wake_at: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    automations: AutomationsTable;
    automation_runs: AutomationRunsTable;
  }
}

declare module '../../platform/db/database.js' {
  interface OutboxTable {
    /** the automation whose action caused the event (the loop rule), null otherwise */
    automation_id: Generated<number | null>;
  }
}
