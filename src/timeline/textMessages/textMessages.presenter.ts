import type { RecordRow } from '../personRecords.js';

export type TextMessageRow = RecordRow<'text_messages'>;

export function presentTextMessage(row: TextMessageRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    personId: row.person_id,
    message: row.message,
    toNumber: row.to_number,
    fromNumber: row.from_number,
    isIncoming: row.is_incoming === 1,
    userId: row.user_id,
    system: row.system,
  };
}
