import type { Generated } from 'kysely';

export interface PeopleRelationshipsTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  name: string;
  first_name: string;
  last_name: string;
  type: string;
  /** JSON arrays, as on people */
  emails: string;
  phones: string;
  addresses: string;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    people_relationships: PeopleRelationshipsTable;
  }
}
