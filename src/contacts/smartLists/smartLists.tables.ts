import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

export interface SmartListsTable {
  id: Generated<number>;
  account_id: number;
  /** the user who owns the list */
  user_id: number;
  name: string;
  /** JSON object of GET /v1/people filters */
  filters: string;
  is_shared: Flag;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    smart_lists: SmartListsTable;
  }
}
