import type { EmCampaignRow } from './emCampaigns.repo.js';

export function presentEmCampaign(
  row: EmCampaignRow,
  merged?: { subject: string; bodyHtml: string },
) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    origin: row.origin,
    originId: row.origin_id,
    name: row.name,
    subject: merged?.subject ?? row.subject,
    bodyHtml: merged?.bodyHtml ?? row.body_html,
    createdById: row.created_by_id,
  };
}
