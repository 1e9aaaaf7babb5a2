import type { Selectable } from 'kysely';
import type { PeopleTable } from '../../platform/db/database.js';
import type { CustomFieldDefinition } from '../customFields/customFields.values.js';

export interface StoredEmail {
  value: string;
  type: string;
  status: string;
  isPrimary: boolean;
}
export interface StoredPhone extends StoredEmail {
  normalized: string;
}
export interface StoredAddress {
  street: string;
  city: string;
  state: string;
  code: string;
  country: string;
  type: string;
}
export interface StoredCollaborator {
  id: number;
  name: string;
}

/** A people row joined with the names the API shows beside the ids. */
export type PersonRow = Selectable<PeopleTable> & {
  stage_name: string | null;
  assigned_name: string | null;
  lender_name: string | null;
};

export type PresentedPerson = Record<string, unknown> & { id: number };

/** Which fields a response carries: null for the standard set, or the names asked for in `fields`. */
export interface FieldSelection {
  only: Set<string> | null;
  customFields: CustomFieldDefinition[];
}

export const STANDARD_FIELDS = [
  'id',
  'created',
  'updated',
  'createdVia',
  'lastActivity',
  'name',
  'firstName',
  'lastName',
  'stage',
  'stageId',
  'source',
  'sourceUrl',
  'contacted',
  'price',
  'assignedTo',
  'assignedUserId',
  'assignedLenderId',
  'assignedLenderName',
  'assignedPondId',
  'background',
  'timeframeId',
  'tags',
  'emails',
  'phones',
  'addresses',
  'collaborators',
] as const;

export function presentPerson(
  row: PersonRow,
  selection: FieldSelection = { only: null, customFields: [] },
): PresentedPerson {
  const full: PresentedPerson = {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    createdVia: row.created_via,
    lastActivity: row.last_activity,
    name: row.name,
    firstName: row.first_name,
    lastName: row.last_name,
    stage: row.stage_name,
    stageId: row.stage_id,
    source: row.source,
    sourceUrl: row.source_url,
    contacted: row.contacted,
    price: row.price,
    assignedTo: row.assigned_name,
    assignedUserId: row.assigned_user_id,
    assignedLenderId: row.assigned_lender_id,
    assignedLenderName: row.lender_name,
    assignedPondId: row.assigned_pond_id,
    background: row.background,
    timeframeId: row.timeframe_id,
    tags: JSON.parse(row.tags) as string[],
    emails: JSON.parse(row.emails) as StoredEmail[],
    phones: JSON.parse(row.phones) as StoredPhone[],
    addresses: JSON.parse(row.addresses) as StoredAddress[],
    collaborators: JSON.parse(row.collaborators) as StoredCollaborator[],
  };
  if (selection.customFields.length > 0) {
    const values = JSON.parse(row.custom) as Record<string, unknown>;
    for (const field of selection.customFields) full[field.name] = values[field.name] ?? null;
  }
  if (!selection.only) return full;
  const picked: PresentedPerson = { id: row.id };
  for (const key of Object.keys(full)) if (selection.only.has(key)) picked[key] = full[key];
  return picked;
}
