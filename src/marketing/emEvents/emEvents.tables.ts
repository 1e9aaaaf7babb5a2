import type { Generated, Insertable } from 'kysely';

export interface EmEventsTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number;
  person_id: number;
  /** The user the email was sent from; null once that user is deleted. */
  user_id: number | null;
  type: string;
  occurred_at: string;
  /** The address the email went to, as the sender reported it ('' when only personId was given). */
  recipient: string;
  /** The link clicked (click events). */
  url: string;
  /** System identification of the request that recorded the event ('' when none was given). */
  system: string;
  created_at: string;
}

/** Events per (campaign, type), kept with every insert (emEvents.counts.ts, migration 0340). */
export interface EmEventCountsTable {
  account_id: number;
  campaign_id: number;
  type: string;
  events: number | string;
  /** people with at least one such event in the campaign (unique opens, clicks) */
  people: number | string;
}

/** Events per (campaign, person, type): a row from a person's first event of the type on. */
export interface EmEventPersonCountsTable {
  account_id: number;
  campaign_id: number;
  person_id: number;
  type: string;
  events: number;
}

/** Events per (account, UTC day of occurrence, campaign, sender, type): migration 0471. */
export interface EmEventDaysTable {
  account_id: number;
  day: string;
  campaign_id: number;
  /** 0: no sender */
  user_id: number;
  type: string;
  events: number | string;
}

export type EmEventDay = EmEventDaysTable;

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    em_event_days: EmEventDaysTable;
    em_events: EmEventsTable;
    em_event_counts: EmEventCountsTable;
    em_event_person_counts: EmEventPersonCountsTable;
  }
}

/** An emEvent as written (emEvents.repo.ts insertEmEvents). */
export type NewEmEvent = Insertable<EmEventsTable>;
