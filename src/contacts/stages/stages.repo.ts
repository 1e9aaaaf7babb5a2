import { sql } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { canSeePerson } from '../../access/visibility.js';

export interface StageRow {
  id: number;
  account_id: number;
  name: string;
  order_weight: number;
  is_protected: number;
  created_at: string;
  updated_at: string;
  people_count: number;
}

/** The account's stages with the number of people in each that `auth` may see. */
export function stagesQuery(db: DbOrTrx, auth: AuthUser) {
  return db
    .selectFrom('stages')
    .selectAll('stages')
    .select((eb) =>
      eb
        .selectFrom('people')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('people.stage_id', '=', 'stages.id')
        .where('people.account_id', '=', auth.accountId)
        .where((inner) => canSeePerson(inner, auth))
        .as('people_count'),
    )
    .where('stages.account_id', '=', auth.accountId);
}

/** The stages list with its filter (an exact name). */
export function stagesList(db: DbOrTrx, auth: AuthUser, filters: { name?: string }) {
  const query = stagesQuery(db, auth);
  return filters.name === undefined ? query : query.where('stages.name', '=', filters.name);
}

export async function findStage(
  db: DbOrTrx,
  auth: AuthUser,
  id: number,
): Promise<StageRow | undefined> {
  return (await stagesQuery(db, auth).where('stages.id', '=', id).executeTakeFirst()) as
    StageRow | undefined;
}

export function presentStage(row: StageRow) {
  return {
    id: row.id,
    name: row.name,
    orderWeight: row.order_weight,
    isProtected: row.is_protected === 1,
    peopleCount: Number(row.people_count ?? 0),
    created: row.created_at,
    updated: row.updated_at,
  };
}
