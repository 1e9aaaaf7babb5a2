/** Email marketing event types (interface part 6), in the order the interface lists them. */
export const EM_EVENT_TYPES = [
  'delivered',
  'open',
  'click',
  'bounced',
  'soft-bounce',
  'hard-bounce',
  'unsubscribe',
  'spamreport',
  'dropped',
] as const;

export type EmEventType = (typeof EM_EVENT_TYPES)[number];

/** The webhook event each type fires; the other types fire none. */
export const WEBHOOK_EVENT_OF_TYPE = {
  open: 'emEventsOpened',
  click: 'emEventsClicked',
  unsubscribe: 'emEventsUnsubscribed',
} as const satisfies Partial<Record<EmEventType, string>>;

/**
 * The status an event gives the address it was sent to: the person's email is not to be mailed
 * again. A spam report counts as the strongest unsubscribe; only a permanent bounce marks the
 * address Bad (soft and generic bounces may pass).
 */
export const EMAIL_STATUS_OF_TYPE = {
  unsubscribe: 'Unsubscribed',
  spamreport: 'Unsubscribed',
  'hard-bounce': 'Bad',
} as const satisfies Partial<Record<EmEventType, string>>;

/** Types that count as an interaction on the person's timeline (lastActivity). */
export const ENGAGEMENT_TYPES: ReadonlySet<EmEventType> = new Set(['open', 'click']);

export const MAX_EVENTS_PER_REQUEST = 1000;

/** Raw counts behind the statistics (emEvents.stats.ts statisticsFrom). */
export interface EmCounts {
  /** events per type */
  byType: Record<string, number>;
  /** distinct (campaign, person) pairs per type (the statistics use open and click) */
  uniqueByType: Record<string, number>;
}
