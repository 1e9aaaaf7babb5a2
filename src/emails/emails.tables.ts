import type { Generated } from 'kysely';
import type { Flag } from '../db/database.js';

export interface EmailsTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  subject: string;
  body: string;
  is_html: Flag;
  from_address: string;
  /** JSON array of addresses */
  to_addresses: string;
  /** JSON array of addresses */
  cc_addresses: string;
  is_incoming: Flag;
  sent_at: string | null;
  user_id: number | null;
  system: string;
  created_at: string;
  updated_at: string;
}

declare module '../db/extension-tables.js' {
  interface ExtensionTables {
    emails: EmailsTable;
  }
}
