import type { Generated } from 'kysely';

export interface PondsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** the lead agent: stands in as the assigned agent of the pond's people */
  user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface TeamsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface PondMembersTable {
  pond_id: number;
  user_id: number;
}

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    ponds: PondsTable;
    pond_members: PondMembersTable;
    teams: TeamsTable;
    team_members: TeamMembersTable;
    team_leaders: TeamMembersTable;
  }
}
