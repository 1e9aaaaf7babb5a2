import type { Generated } from 'kysely';

export const BULK_ACTIONS = ['assign', 'addTag', 'removeTag', 'stage', 'delete'] as const;
export type BulkActionKind = (typeof BULK_ACTIONS)[number];
export type BulkActionStatus = 'queued' | 'running' | 'done' | 'failed';

/** One bulk action on people (migration 0480): what, by whom, and how far it has got. */
export interface BulkActionsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  action: BulkActionKind;
  /** the agent's or stage's id, or the tag; null for delete */
  value: string | null;
  status: BulkActionStatus;
  total: number;
  processed: Generated<number>;
  changed: Generated<number>;
  skipped: Generated<number>;
  /** the person id the work has reached (people are worked through in id order) */
  after_person_id: Generated<number>;
  /** JSON: the first people that could not be changed, [{personId, message}] */
  errors: Generated<string>;
  /** why the action stopped as a whole */
  message: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** The people a bulk action acts on, fixed when it was asked for. */
export interface BulkActionPeopleTable {
  bulk_action_id: number;
  person_id: number;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    bulk_actions: BulkActionsTable;
    bulk_action_people: BulkActionPeopleTable;
  }
}
