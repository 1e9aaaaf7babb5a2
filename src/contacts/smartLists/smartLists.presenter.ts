import type { SmartListRow } from './smartLists.repo.js';

export function presentSmartList(row: SmartListRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    filters: JSON.parse(row.filters) as Record<string, unknown>,
    userId: row.user_id,
    isShared: row.is_shared === 1,
  };
}
