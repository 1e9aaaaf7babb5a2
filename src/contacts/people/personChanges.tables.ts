import type { Generated } from 'kysely';

/** A person's stage or assigned agent changing, as the timeline shows it (migration 0430). */
export interface PersonChangesTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  /** 'stage' or 'assignedUser' */
  field: string;
  /** names as they were at the time (a stage or user renamed later keeps the old name here) */
  from_value: string | null;
  to_value: string | null;
  /** who changed it; null when Hearth did (lead routing, a claim) */
  user_id: number | null;
  user_name: string;
  created_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    person_changes: PersonChangesTable;
  }
}
