import type { Selectable } from 'kysely';
import type { WebhooksTable } from './webhooks.tables.js';

export type WebhookRow = Pick<
  Selectable<WebhooksTable>,
  'id' | 'event' | 'url' | 'status' | 'created_at' | 'updated_at' | 'system'
>;

export function presentWebhook(row: WebhookRow) {
  return {
    id: row.id,
    event: row.event,
    url: row.url,
    status: row.status,
    created: row.created_at,
    updated: row.updated_at,
    system: row.system,
  };
}

export interface AttemptRow {
  id: number;
  event_uuid: string;
  event: string;
  attempt: number;
  attempted_at: string;
  success: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response: string | null;
}

export function presentAttempt(row: AttemptRow) {
  return {
    id: row.id,
    eventId: row.event_uuid,
    event: row.event,
    attempt: row.attempt,
    created: row.attempted_at.replace(/\.\d{3}Z$/, 'Z'),
    success: row.success === 1,
    statusCode: row.status_code,
    latencyMs: row.latency_ms,
    error: row.error,
    response: row.response,
  };
}
