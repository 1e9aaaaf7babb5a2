import type { RecordRow } from '../personRecords.js';

export type CallRow = RecordRow<'calls'>;

export function presentCall(row: CallRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    personId: row.person_id ?? 0,
    phone: row.phone,
    isIncoming: row.is_incoming === 1,
    outcome: row.outcome,
    duration: row.duration,
    note: row.note,
    toNumber: row.to_number,
    fromNumber: row.from_number,
    userId: row.user_id,
    recordingUrl: row.recording_url,
    system: row.system,
  };
}
