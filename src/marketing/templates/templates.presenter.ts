import type { TemplateRow } from './templates.repo.js';

export function presentTemplate(row: TemplateRow, merged?: { subject: string; body: string }) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    subject: merged?.subject ?? row.subject,
    body: merged?.body ?? row.body,
    isShared: row.is_shared === 1,
    createdById: row.created_by_id,
  };
}
