import type { Generated } from 'kysely';

/** Stored statuses; `received` (not yet parsed) is listed as `unparsed` until the parser has run. */
export type InboundStatus = 'received' | 'parsed' | 'unparsed' | 'ignored' | 'rejected';
export type HistoricStatus = 'queued' | 'running' | 'done' | 'failed';

export interface LeadAddressesTable {
  id: Generated<number>;
  account_id: number;
  /** null: the account's address (its leads follow the lead flow of their source) */
  user_id: number | null;
  local_part: string;
  created_at: string;
}

export interface InboundEmailsTable {
  id: Generated<number>;
  account_id: number;
  /** the user whose lead address received it: its lead is assigned to them */
  user_id: number | null;
  historic_id: number | null;
  /** the message's place in its mbox file (historic uploads) */
  seq: number | null;
  message_key: string;
  received_at: string;
  mail_from: string;
  rcpt_to: string;
  subject: string;
  raw: Buffer;
  status: InboundStatus;
  parser: string | null;
  person_id: number | null;
  event_id: number | null;
  error: string | null;
  parsed_at: string | null;
  /** when the raw bytes were purged (HEARTH_INBOUND_RETENTION_DAYS); null while kept */
  raw_purged_at: string | null;
}

export interface InboundHistoricTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  status: HistoricStatus;
  total: number | null;
  processed: Generated<number>;
  created: Generated<number>;
  updated: Generated<number>;
  skipped: Generated<number>;
  message: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface InboundHistoricErrorsTable {
  historic_id: number;
  row: number;
  message: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    lead_addresses: LeadAddressesTable;
    inbound_emails: InboundEmailsTable;
    inbound_historic: InboundHistoricTable;
    inbound_historic_errors: InboundHistoricErrorsTable;
  }
}
