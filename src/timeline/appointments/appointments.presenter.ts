import type { Selectable } from 'kysely';
import type { RecordRow } from '../personRecords.js';
import type { AppointmentInviteesTable } from './appointments.tables.js';

export type AppointmentRow = RecordRow<'appointments'>;
export type InviteeRow = Selectable<AppointmentInviteesTable>;

export function presentAppointment(row: AppointmentRow, invitees: InviteeRow[]) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    title: row.title,
    start: row.start_at,
    end: row.end_at,
    allDay: row.all_day === 1,
    description: row.description,
    location: row.location,
    typeId: row.type_id,
    outcomeId: row.outcome_id,
    origin: row.origin,
    createdById: row.created_by_id,
    invitees: invitees.map((i) => ({
      ...(i.user_id !== null ? { userId: i.user_id } : {}),
      ...(i.person_id !== null ? { personId: i.person_id } : {}),
      ...(i.email !== null ? { email: i.email } : {}),
      name: i.name,
    })),
  };
}
