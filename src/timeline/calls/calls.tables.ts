import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

export interface CallsTable {
  id: Generated<number>;
  account_id: number;
  /** null: an unknown caller (personId 0 on the wire) */
  person_id: number | null;
  phone: string;
  normalized_phone: string;
  is_incoming: Flag;
  outcome: string | null;
  duration: number;
  note: string;
  to_number: string;
  from_number: string;
  user_id: number | null;
  recording_url: string;
  system: string;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    calls: CallsTable;
  }
}
