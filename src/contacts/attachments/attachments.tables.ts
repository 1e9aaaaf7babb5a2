import type { Generated } from 'kysely';

export interface PersonAttachmentsTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  uri: string;
  file_name: string;
  file_size: number | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    person_attachments: PersonAttachmentsTable;
  }
}
