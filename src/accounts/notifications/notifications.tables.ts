import type { Generated } from 'kysely';

/**
 * leadOffer: a first-to-claim group's member is offered a lead (POST /v1/people/claim);
 * handOver: a person was assigned to the user by someone else; automation: an automation's notify action.
 */
export type NotificationKind =
  'newLead' | 'returningLead' | 'leadOffer' | 'handOver' | 'automation';

export interface NotificationsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  person_id: number;
  event_id: number | null;
  kind: NotificationKind;
  title: string;
  message: string;
  read_at: string | null;
  created_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    notifications: NotificationsTable;
  }
}
