/** Lead event types: the interface's values plus those real clients send (compat notes). */
export const EVENT_TYPES = [
  'Registration',
  'Seller Inquiry',
  'Property Inquiry',
  'General Inquiry',
  'Inquiry',
  'Visited Open House',
  'Viewed Property',
  'Saved Property',
  'Property Search',
  'Saved Property Search',
  'Visited Website',
  'Viewed Page',
  'Incoming Call',
  'Unsubscribed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** A new lead of one of these types starts its lead flow's action plan (interface part 6). */
export const PLAN_TRIGGERING_TYPES: ReadonlySet<string> = new Set([
  'Registration',
  'Seller Inquiry',
  'Property Inquiry',
  'General Inquiry',
  'Inquiry',
  'Visited Open House',
]);

const squash = (value: string) => value.replace(/[\s_-]+/g, '').toLowerCase();

/** Every spelling accepted, squashed (no spaces, lower case): "Viewed Property", "viewedProperty", "viewed_property". */
const BY_SQUASHED = new Map<string, EventType>([
  ...EVENT_TYPES.map((t) => [squash(t), t] as [string, EventType]),
  ['pageview', 'Viewed Page'],
  ['general', 'General Inquiry'],
  ['seller', 'Seller Inquiry'],
  ['openhouse', 'Visited Open House'],
  ['search', 'Property Search'],
  ['call', 'Incoming Call'],
]);

/**
 * The stored type of an event, or null when the value is not a known type. `Inquiry` is resolved by
 * whether the event carries a property: Property Inquiry with one, General Inquiry without.
 */
export function canonicalEventType(raw: string, hasProperty: boolean): EventType | null {
  const type = BY_SQUASHED.get(squash(raw));
  if (!type) return null;
  if (type === 'Inquiry') return hasProperty ? 'Property Inquiry' : 'General Inquiry';
  return type;
}
