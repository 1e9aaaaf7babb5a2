import type { Generated } from 'kysely';

export type LeadFlowStatus = 'Active' | 'Archived';

export interface LeadFlowsTable {
  id: Generated<number>;
  account_id: number;
  /** As given (without a leading www.); `source_key` is its lower-cased form, unique per account. */
  source: string;
  source_key: string;
  status: LeadFlowStatus;
  assigned_user_id: number | null;
  group_id: number | null;
  action_plan_id: number | null;
  stage_id: number | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    lead_flows: LeadFlowsTable;
  }
}
