import { fetchPage, type Page } from '../api/lists';

/** The kinds of record on a person's timeline and where each is listed. */
export const TIMELINE_SOURCES = {
  event: 'events',
  note: 'notes',
  call: 'calls',
  text: 'textMessages',
  email: 'emails',
  task: 'tasks',
  appointment: 'appointments',
  deal: 'deals',
  relationship: 'peopleRelationships',
  actionPlan: 'actionPlansPeople',
  inboxMessage: 'inboxAppMessages',
  change: 'personChanges',
} as const;

export type TimelineKind = keyof typeof TIMELINE_SOURCES;

export interface TimelineRecord {
  id: number;
  created: string;
  [field: string]: unknown;
}

export interface TimelineEntry {
  kind: TimelineKind;
  at: string;
  record: TimelineRecord;
}

export type TimelineState = Record<TimelineKind, Page<TimelineRecord>>;

const PAGE_SIZE = 50;

export const timelineKey = (personId: number) => ['timeline', personId];

function timeOf(kind: TimelineKind, record: TimelineRecord): string {
  if (kind === 'event' && typeof record.occurred === 'string') return record.occurred;
  if ((kind === 'inboxMessage' || kind === 'email') && typeof record.sentAt === 'string')
    return record.sentAt;
  return record.created;
}

export async function loadTimeline(personId: number): Promise<TimelineState> {
  const kinds = Object.keys(TIMELINE_SOURCES) as TimelineKind[];
  const pages = await Promise.all(
    kinds.map((kind) =>
      fetchPage<TimelineRecord>(
        `/v1/${TIMELINE_SOURCES[kind]}?personId=${personId}&limit=${PAGE_SIZE}`,
      ),
    ),
  );
  return Object.fromEntries(kinds.map((kind, i) => [kind, pages[i]])) as TimelineState;
}

/** Fetches the next page of every source that has one, appended to what is loaded. */
export async function loadOlder(state: TimelineState): Promise<TimelineState> {
  const kinds = (Object.keys(state) as TimelineKind[]).filter((kind) => state[kind].next);
  const pages = await Promise.all(
    kinds.map((kind) => fetchPage<TimelineRecord>(state[kind].next as string)),
  );
  const updated = { ...state };
  kinds.forEach((kind, i) => {
    updated[kind] = { ...pages[i], items: [...state[kind].items, ...pages[i].items] };
  });
  return updated;
}

/**
 * Newest first. While a source has unloaded older records, nothing older than its oldest loaded
 * record is shown (it could hide that source's records in between), so the list never has gaps.
 */
export function mergeTimeline(state: TimelineState): {
  entries: TimelineEntry[];
  hasOlder: boolean;
} {
  const entries: TimelineEntry[] = [];
  let cutoff = '';
  for (const kind of Object.keys(state) as TimelineKind[]) {
    const { items, next } = state[kind];
    for (const record of items) entries.push({ kind, at: timeOf(kind, record), record });
    if (next && items.length) {
      const oldest = items.map((r) => timeOf(kind, r)).sort()[0];
      if (oldest > cutoff) cutoff = oldest;
    }
  }
  entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.record.id - a.record.id));
  const hasOlder = (Object.keys(state) as TimelineKind[]).some((kind) => state[kind].next);
  return { entries: cutoff ? entries.filter((e) => e.at >= cutoff) : entries, hasOlder };
}
