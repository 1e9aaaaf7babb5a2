import type { Generated } from 'kysely';

export type DealStatus = 'Active' | 'Archived' | 'Deleted';

export interface DealsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string;
  pipeline_id: number | null;
  stage_id: number | null;
  status: DealStatus;
  price: number | null;
  projected_close_date: string | null;
  earnest_money_due_date: string | null;
  possession_date: string | null;
  commission_value: number | null;
  agent_commission: number | null;
  team_commission: number | null;
  order_weight: number;
  entered_stage_at: string;
  created_by_id: number | null;
  /** custom field values, JSON object text */
  custom: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface DealPeopleTable {
  account_id: number;
  deal_id: number;
  person_id: number;
}

export interface DealUsersTable {
  account_id: number;
  deal_id: number;
  user_id: number;
}

export interface DealAttachmentsTable {
  id: Generated<number>;
  account_id: number;
  deal_id: number;
  uri: string;
  file_name: string;
  file_size: number | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

declare module '../platform/db/extension-tables.js' {
  interface ExtensionTables {
    deals: DealsTable;
    deal_people: DealPeopleTable;
    deal_users: DealUsersTable;
    deal_attachments: DealAttachmentsTable;
  }
}
