import { randomUUID } from 'node:crypto';
import { EVENT_RESOURCES, type EventName, isEventName } from './event-names.js';

/** Rule 9: a large change is split into several deliveries of at most this many ids. */
export const MAX_IDS_PER_DELIVERY = 100;

/**
 * The address that GETs the changed records: people events always use the list filter
 * (`/v1/people?id=1,2`); others use `/path/:id` for one record and `/path?id=1,2` for several.
 */
export function eventUri(publicUrl: string, event: EventName, ids: number[]): string | null {
  const path = EVENT_RESOURCES[event];
  if (path === null || ids.length === 0) return null;
  // /v1/events/:personId names a person, not an event, so events (like people) are always fetched by ?id=.
  if (path === '/v1/people' || path === '/v1/events' || ids.length > 1)
    return `${publicUrl}${path}?id=${ids.join(',')}`;
  return `${publicUrl}${path}/${ids[0]}`;
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface BuiltEvent {
  uuid: string;
  event: string;
  body: string;
}

/** The exact JSON body of a delivery; stored as sent so that GET /v1/webhookEvents/:id and retries repeat it byte for byte. */
export function buildEventBodies(
  publicUrl: string,
  outbox: { event: string; resource_ids: string; data: string | null; created_at: string },
): BuiltEvent[] {
  if (!isEventName(outbox.event)) return [];
  const event = outbox.event;
  const ids = (JSON.parse(outbox.resource_ids) as unknown[])
    .map(Number)
    .filter((n) => Number.isInteger(n));
  const data =
    outbox.data === null ? undefined : (JSON.parse(outbox.data) as Record<string, unknown>);
  const eventCreated = outbox.created_at.replace(/(\.\d+)?Z$/, '+00:00');
  return chunk(ids, MAX_IDS_PER_DELIVERY).map((part) => {
    const uuid = randomUUID();
    const payload: Record<string, unknown> = {
      eventId: uuid,
      eventCreated,
      event,
      resourceIds: part,
      uri: eventUri(publicUrl, event, part),
    };
    if (data !== undefined) payload.data = data;
    return { uuid, event, body: JSON.stringify(payload) };
  });
}
