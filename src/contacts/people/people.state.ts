import type {
  PersonRow,
  StoredAddress,
  StoredCollaborator,
  StoredEmail,
  StoredPhone,
} from './people.presenter.js';

// A person's state and the pure functions on it: read from and written to a row, compared, merged.

/** The stored state of a person, in the shape the service reasons about. */
export interface PersonState {
  name: string;
  firstName: string;
  lastName: string;
  stageId: number | null;
  source: string;
  sourceUrl: string;
  price: number | null;
  background: string;
  timeframeId: number | null;
  contacted: number;
  assignedUserId: number | null;
  assignedLenderId: number | null;
  assignedPondId: number | null;
  emails: StoredEmail[];
  phones: StoredPhone[];
  addresses: StoredAddress[];
  tags: string[];
  collaborators: StoredCollaborator[];
  custom: Record<string, unknown>;
}

export function emptyPersonState(): PersonState {
  return {
    name: '',
    firstName: '',
    lastName: '',
    stageId: null,
    source: '',
    sourceUrl: '',
    price: null,
    background: '',
    timeframeId: null,
    contacted: 0,
    assignedUserId: null,
    assignedLenderId: null,
    assignedPondId: null,
    emails: [],
    phones: [],
    addresses: [],
    tags: [],
    collaborators: [],
    custom: {},
  };
}

export function stateFromRow(row: PersonRow): PersonState {
  return {
    name: row.name,
    firstName: row.first_name,
    lastName: row.last_name,
    stageId: row.stage_id,
    source: row.source,
    sourceUrl: row.source_url,
    price: row.price,
    background: row.background,
    timeframeId: row.timeframe_id,
    contacted: row.contacted,
    assignedUserId: row.assigned_user_id,
    assignedLenderId: row.assigned_lender_id,
    assignedPondId: row.assigned_pond_id,
    emails: JSON.parse(row.emails),
    phones: JSON.parse(row.phones),
    addresses: JSON.parse(row.addresses),
    tags: JSON.parse(row.tags),
    collaborators: JSON.parse(row.collaborators),
    custom: JSON.parse(row.custom),
  };
}

/** A person's state as the columns of its `people` row (people.bulk.ts writes many at once). */
export function columnsFromState(state: PersonState) {
  return {
    name: state.name,
    first_name: state.firstName,
    last_name: state.lastName,
    stage_id: state.stageId,
    source: state.source,
    source_url: state.sourceUrl,
    price: state.price,
    background: state.background,
    timeframe_id: state.timeframeId,
    contacted: state.contacted,
    assigned_user_id: state.assignedUserId,
    assigned_lender_id: state.assignedLenderId,
    assigned_pond_id: state.assignedPondId,
    emails: JSON.stringify(state.emails),
    phones: JSON.stringify(state.phones),
    addresses: JSON.stringify(state.addresses),
    tags: JSON.stringify(state.tags),
    collaborators: JSON.stringify(state.collaborators),
    custom: JSON.stringify(state.custom),
  };
}

/** Fields whose change fires peopleUpdated (interface part 6, rule 1). */
const WATCHED: (keyof PersonState)[] = [
  'name',
  'firstName',
  'lastName',
  'emails',
  'phones',
  'addresses',
  'price',
  'background',
  'timeframeId',
  'assignedUserId',
  'assignedLenderId',
  'assignedPondId',
  'contacted',
  'stageId',
  'source',
  'sourceUrl',
  'tags',
  'custom',
  'collaborators',
];

export function uniqueTags(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags
    .map((t) => t.trim())
    .filter((t) => {
      const key = t.toLowerCase();
      if (!t || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** Lead-style merge: fills empty fields and adds new contacts and tags, never wiping what is stored. */
export function mergePersonStates(current: PersonState, incoming: PersonState): PersonState {
  const fill = <T>(a: T, b: T, empty: (v: T) => boolean) => (empty(a) ? b : a);
  const blank = (v: unknown) => v === '' || v === null || v === undefined;
  const emails = [...current.emails];
  for (const e of incoming.emails)
    if (!emails.some((x) => x.value.toLowerCase() === e.value.toLowerCase()))
      emails.push({ ...e, isPrimary: false });
  const phones = [...current.phones];
  for (const p of incoming.phones)
    if (!phones.some((x) => x.normalized === p.normalized)) phones.push({ ...p, isPrimary: false });
  const addresses = [...current.addresses];
  const addressKey = (a: StoredAddress) => `${a.street}|${a.city}|${a.code}`.toLowerCase();
  for (const a of incoming.addresses)
    if (!addresses.some((x) => addressKey(x) === addressKey(a))) addresses.push(a);
  const collaborators = [...current.collaborators];
  for (const c of incoming.collaborators)
    if (!collaborators.some((x) => x.id === c.id)) collaborators.push(c);
  const custom = { ...current.custom };
  for (const [k, v] of Object.entries(incoming.custom)) if (blank(custom[k])) custom[k] = v;
  return {
    name: fill(current.name, incoming.name, blank),
    firstName: fill(current.firstName, incoming.firstName, blank),
    lastName: fill(current.lastName, incoming.lastName, blank),
    stageId: fill(current.stageId, incoming.stageId, blank),
    source: fill(current.source, incoming.source, blank),
    sourceUrl: fill(current.sourceUrl, incoming.sourceUrl, blank),
    price: fill(current.price, incoming.price, blank),
    background: fill(current.background, incoming.background, blank),
    timeframeId: fill(current.timeframeId, incoming.timeframeId, blank),
    contacted: current.contacted || incoming.contacted,
    // Merges never move a person into or out of a pond.
    assignedUserId:
      current.assignedPondId === null
        ? fill(current.assignedUserId, incoming.assignedUserId, blank)
        : null,
    assignedPondId: current.assignedPondId,
    assignedLenderId: fill(current.assignedLenderId, incoming.assignedLenderId, blank),
    emails,
    phones,
    addresses,
    tags: uniqueTags([...current.tags, ...incoming.tags]),
    collaborators,
    custom,
  };
}

/** The watched fields that differ: empty when saving `after` would change nothing. */
export function changedFields(before: PersonState, after: PersonState): (keyof PersonState)[] {
  return WATCHED.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}
