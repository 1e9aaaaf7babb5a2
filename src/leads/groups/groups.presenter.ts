import type { GroupMember, GroupRow } from './groups.repo.js';

export function presentGroup(row: GroupRow, users: GroupMember[]) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    type: row.type,
    distribution: row.distribution,
    claimWindow: row.claim_window,
    defaultUserId: row.default_user_id,
    defaultGroupId: row.default_group_id,
    defaultPondId: row.default_pond_id,
    users,
  };
}
