import type { Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

/** Email templates (`/v1/templates`) and text-message templates (`/v1/textMessageTemplates`). */
export type TemplateKind = 'email' | 'text';

export interface TemplatesTable {
  id: Generated<number>;
  account_id: number;
  kind: Generated<TemplateKind>;
  name: string;
  subject: string;
  body: string;
  is_shared: Flag;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    templates: TemplatesTable;
  }
}
