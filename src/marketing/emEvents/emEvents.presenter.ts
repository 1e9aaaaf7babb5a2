import type { EmEventRow } from './emEvents.repo.js';

export function presentEmEvent(row: EmEventRow) {
  return {
    id: row.id,
    created: row.created_at,
    type: row.type,
    occurred: row.occurred_at,
    campaignId: row.campaign_id,
    personId: row.person_id,
    userId: row.user_id,
    recipient: row.recipient,
    url: row.url,
    system: row.system,
  };
}
