import type { Generated } from 'kysely';

export interface PersonSocialProfilesTable {
  id: Generated<number>;
  account_id: number;
  person_id: number;
  network: string;
  url: string;
  created_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    person_social_profiles: PersonSocialProfilesTable;
  }
}
