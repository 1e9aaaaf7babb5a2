import type { Generated } from 'kysely';

export type SendStatus = 'sending' | 'done';

export interface EmSendsTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number;
  /** Who asked for the send: the sender of its messages (null once that user is deleted). */
  user_id: number | null;
  status: SendStatus;
  /** The campaign's subject and body when the send was asked for. */
  subject: string;
  body_html: string;
  send_at: string;
  total: number;
  created_at: string;
  finished_at: string | null;
  /** When the send was cancelled (its unsent recipients became `cancelled`), and by whom. */
  cancelled_at: string | null;
  cancelled_by: Generated<string>;
}

/** Waiting or being worked on. */
export const OPEN_RECIPIENT_STATUSES = ['queued', 'claimed', 'handing'] as const;
/** Finished, one way or another. */
export const FINAL_RECIPIENT_STATUSES = [
  'sent',
  'skipped',
  'dropped',
  'hard-bounce',
  'soft-bounce',
  'cancelled',
] as const;
export type RecipientStatus =
  (typeof OPEN_RECIPIENT_STATUSES)[number] | (typeof FINAL_RECIPIENT_STATUSES)[number];

export interface EmSendRecipientsTable {
  id: Generated<number>;
  account_id: number;
  send_id: number;
  person_id: number;
  /** The address the message went (or would have gone) to. */
  email: Generated<string>;
  status: RecipientStatus;
  /** Why a recipient was skipped or dropped, or the SMTP answer of a bounce. */
  reason: Generated<string>;
  attempts: Generated<number>;
  run_at: string;
  /** The random claim of the worker working on it: every later write checks it (fencing). */
  claim: string | null;
  locked_until: string | null;
  token: string;
  sent_at: string | null;
  last_error: string | null;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    em_sends: EmSendsTable;
    em_send_recipients: EmSendRecipientsTable;
  }
}
