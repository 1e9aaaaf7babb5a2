import type { DbOrTrx } from '../../platform/db/database.js';
import { teamsLedBy } from './userLists.js';
import type { UserRow } from './users.repo.js';

export function presentUser(row: UserRow, teamLeaderOf: number[]) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    status: row.deleted_at ? 'Deleted' : 'Active',
    teamLeaderOf,
  };
}

/** Users as the API shows them, with the teams each leads. */
export async function presentUsers(db: DbOrTrx, rows: UserRow[]) {
  const led = await teamsLedBy(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => presentUser(row, led.get(row.id)!));
}
