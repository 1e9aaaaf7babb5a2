import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

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
  /** The message's Message-ID when it came from (or went out through) a connected mailbox. */
  message_id: string | null;
  /** The Message-ID that starts the message's conversation. */
  thread_id: string | null;
  /** The HTML body, sanitised (no script, no remote content). */
  html_body: string | null;
  mailbox_id: number | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    emails: EmailsTable;
  }
}
