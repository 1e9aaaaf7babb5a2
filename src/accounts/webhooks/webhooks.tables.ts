import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

export type WebhookStatus = 'Active' | 'Disabled';
export type DeliveryState = 'pending' | 'delivered' | 'abandoned';

export interface WebhooksTable {
  id: Generated<number>;
  account_id: number;
  system: string;
  event: string;
  url: string;
  status: WebhookStatus;
  created_at: string;
  updated_at: string;
  failing_since: string | null;
  locked_by: string | null;
  locked_until: string | null;
  /** Set on the subscription of an inbox app installation: never shown by /v1/webhooks. */
  inbox_app_id: number | null;
}

export interface WebhookSigningKeysTable {
  system: string;
  key_hash: string;
  key_cipher: string;
  updated_at: string;
}

export interface WebhookEventsTable {
  id: Generated<number>;
  event_uuid: string;
  account_id: number;
  event: string;
  payload: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  account_id: number;
  webhook_id: number;
  event_id: number;
  state: DeliveryState;
  attempts: Generated<number>;
  next_attempt_at: string;
  first_attempt_at: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  account_id: number;
  webhook_id: number;
  delivery_id: number;
  attempt: number;
  attempted_at: string;
  success: Flag;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response: string | null;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    webhooks: WebhooksTable;
    webhook_signing_keys: WebhookSigningKeysTable;
    webhook_events: WebhookEventsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_attempts: WebhookAttemptsTable;
  }
}
