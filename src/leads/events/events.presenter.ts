import type { Selectable } from 'kysely';
import type { LeadEventsTable } from './events.tables.js';

export type LeadEventRow = Selectable<LeadEventsTable>;

const json = (text: string | null) =>
  text === null ? null : (JSON.parse(text) as Record<string, unknown>);

export function presentEvent(row: LeadEventRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    occurred: row.occurred_at,
    personId: row.person_id,
    type: row.type,
    source: row.source,
    system: row.system,
    message: row.message,
    description: row.description,
    noteId: row.note_id,
    property: json(row.property),
    propertySearch: json(row.property_search),
    campaign: json(row.campaign),
    pageTitle: row.page_title,
    pageUrl: row.page_url,
    pageReferrer: row.page_referrer,
    pageDuration: row.page_duration,
    sourceUrl: row.source_url,
  };
}
