import type { RecordRow } from '../personRecords.js';

export type RelationshipRow = RecordRow<'people_relationships'>;

export function presentRelationship(row: RelationshipRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    personId: row.person_id,
    name: row.name,
    firstName: row.first_name,
    lastName: row.last_name,
    type: row.type,
    emails: JSON.parse(row.emails),
    phones: JSON.parse(row.phones),
    addresses: JSON.parse(row.addresses),
  };
}
