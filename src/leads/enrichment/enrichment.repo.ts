import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { PersonSocialProfilesTable } from './enrichment.tables.js';
import './enrichment.tables.js';

export type SocialProfileRow = Selectable<PersonSocialProfilesTable>;

/** The social profiles found for one person. */
export function socialProfilesOf(db: DbOrTrx, accountId: number, personId: number) {
  return db
    .selectFrom('person_social_profiles')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('person_id', '=', personId);
}
