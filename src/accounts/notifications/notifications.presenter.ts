import type { NotificationRow } from './notifications.repo.js';

export function presentNotification(row: NotificationRow) {
  return {
    id: row.id,
    created: row.created_at,
    type: row.kind,
    title: row.title,
    message: row.message,
    personId: row.person_id,
    eventId: row.event_id,
    read: row.read_at !== null,
    readAt: row.read_at,
  };
}
