import type { Generated } from 'kysely';

export interface EmCampaignsTable {
  id: Generated<number>;
  account_id: number;
  /** Name of the sending system (a marketing tool, or Hearth for built-in email). */
  origin: string;
  /** The sending system's own identifier of the campaign. */
  origin_id: string;
  name: string;
  subject: string;
  body_html: string;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    em_campaigns: EmCampaignsTable;
  }
}
