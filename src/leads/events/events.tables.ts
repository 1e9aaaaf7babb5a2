import type { Generated } from 'kysely';

export interface LeadEventsTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  created_at: string;
  updated_at: string;
  occurred_at: string;
  type: string;
  source: string;
  system: string;
  message: string;
  description: string;
  note_id: number | null;
  /** JSON objects stored as text, null when the event carried none. */
  property: string | null;
  property_search: string | null;
  campaign: string | null;
  page_title: string;
  page_url: string;
  page_referrer: string;
  page_duration: number | null;
  source_url: string;
}

/** `kind` is 'email' (lower-cased address) or 'phone' (normalized digits); UNIQUE per account. */
export interface LeadIdentityKeysTable {
  account_id: number;
  kind: 'email' | 'phone';
  value: string;
  person_id: number;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    lead_events: LeadEventsTable;
    lead_identity_keys: LeadIdentityKeysTable;
  }
}
