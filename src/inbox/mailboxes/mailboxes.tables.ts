import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

export type MailboxStatus = 'connecting' | 'syncing' | 'ok' | 'error';
export type MailboxAuthKind = 'password' | 'google' | 'microsoft';

export interface MailboxesTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  address: string;
  auth_kind: MailboxAuthKind;
  imap_host: string;
  imap_port: number;
  imap_secure: Flag;
  imap_username: string;
  smtp_host: string;
  smtp_port: number;
  smtp_secure: Flag;
  smtp_username: string;
  /** The credentials (passwords or OAuth tokens) as JSON, encrypted with the server secret. */
  secret: string;
  status: MailboxStatus;
  error: string | null;
  last_sync_at: string | null;
  /** The start of the window the first sync read (HEARTH_MAILBOX_SYNC_DAYS before connecting). */
  synced_since: string | null;
  failures: number;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface MailboxFoldersTable {
  mailbox_id: number;
  role: 'inbox' | 'sent';
  path: string;
  uid_validity: string;
  last_uid: number;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    mailboxes: MailboxesTable;
    mailbox_folders: MailboxFoldersTable;
  }
}
