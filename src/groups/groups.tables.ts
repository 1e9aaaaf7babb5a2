import type { Generated } from 'kysely';

export interface UserGroupsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  distribution: 'round-robin';
  /** How many leads the rotation has handed out; the next member is rotation % members. */
  rotation: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface UserGroupMembersTable {
  group_id: number;
  user_id: number;
  position: number;
}

declare module '../db/extension-tables.js' {
  interface ExtensionTables {
    user_groups: UserGroupsTable;
    user_group_members: UserGroupMembersTable;
  }
}
