import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

export interface TextMessagesTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  message: string;
  to_number: string;
  from_number: string;
  is_incoming: Flag;
  user_id: number | null;
  system: string;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    text_messages: TextMessagesTable;
  }
}
