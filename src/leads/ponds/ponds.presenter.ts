import type { PondRow } from '../../contacts/people/assignment.js';

export function presentPond(row: PondRow, userIds: number[]) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    userId: row.user_id,
    userIds,
  };
}
