import type { SocialProfileRow } from './enrichment.repo.js';

export function presentSocialProfile(row: SocialProfileRow) {
  return {
    id: row.id,
    created: row.created_at,
    personId: row.person_id,
    network: row.network,
    url: row.url,
  };
}
