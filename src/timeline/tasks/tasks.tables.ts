import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

export interface TasksTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  name: string;
  type: string;
  assigned_user_id: number | null;
  /** YYYY-MM-DD */
  due_date: string | null;
  /** ISO 8601 UTC */
  due_date_time: string | null;
  remind_seconds_before: Generated<number | null>;
  is_completed: Flag;
  completed_at: string | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    tasks: TasksTable;
  }
}
