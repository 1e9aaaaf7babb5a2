import type { Static } from '@sinclair/typebox';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import { canSeeAppointment } from '../../access/visibility.js';
import { seesWholeAccount } from '../../access/roles.js';
import {
  APPOINTMENT_OUTCOMES,
  APPOINTMENT_TYPES,
} from '../appointmentTypes/appointmentTypes.kinds.js';
import { requireLabel } from '../appointmentTypes/appointmentTypes.repo.js';
import { touchLastActivity } from '../../contacts/people/people.activity.js';
import { personRecords } from '../personRecords.js';
import { isoField, requireAccountUser, requirePerson } from '../timeline.shared.js';
import type { AppointmentRow, InviteeRow } from './appointments.presenter.js';
import type {
  AppointmentCreateBody,
  AppointmentListQuery,
  AppointmentUpdateBody,
  appointmentFields,
} from './appointments.schemas.js';

/** The appointments of the account the caller may see (access/visibility.ts). */
function visibleAppointments(db: DbOrTrx, auth: AuthUser) {
  return db
    .selectFrom('appointments')
    .selectAll('appointments')
    .where('appointments.account_id', '=', auth.accountId)
    .where((eb) => canSeeAppointment(eb, db, auth));
}

/** Validates and stores invitees; returns the people invited (their lastActivity moves). */
async function saveInvitees(
  trx: Trx,
  auth: AuthUser,
  appointmentId: number,
  invitees: Static<typeof appointmentFields.invitees>,
): Promise<number[]> {
  await trx
    .deleteFrom('appointment_invitees')
    .where('account_id', '=', auth.accountId)
    .where('appointment_id', '=', appointmentId)
    .execute();
  const people: number[] = [];
  for (const invitee of invitees) {
    let values: { user_id?: number; person_id?: number; email?: string; name: string };
    if ('userId' in invitee)
      values = {
        user_id: invitee.userId,
        name: (await requireAccountUser(trx, auth.accountId, invitee.userId, 'invitees.userId'))
          .name,
      };
    else if ('personId' in invitee) {
      await requirePerson(trx, auth, invitee.personId);
      const p = await trx
        .selectFrom('people')
        .select('name')
        .where('id', '=', invitee.personId)
        .executeTakeFirstOrThrow();
      values = { person_id: invitee.personId, name: p.name };
      people.push(invitee.personId);
    } else values = { email: invitee.email.trim().toLowerCase(), name: invitee.name ?? '' };
    await trx
      .insertInto('appointment_invitees')
      .values({ account_id: auth.accountId, appointment_id: appointmentId, ...values })
      .execute();
  }
  return [...new Set(people)];
}

/** Invites people (their lastActivity moves to the write) and users, replacing earlier invitees. */
async function inviteAndTouch(
  trx: Trx,
  auth: AuthUser,
  appointmentId: number,
  invitees: Static<typeof appointmentFields.invitees>,
  at: string,
) {
  for (const personId of await saveInvitees(trx, auth, appointmentId, invitees))
    await touchLastActivity(trx, auth.accountId, personId, at);
}

export const appointments = personRecords({
  table: 'appointments',
  label: 'Appointment',
  events: {
    created: 'appointmentsCreated',
    updated: 'appointmentsUpdated',
    deleted: 'appointmentsDeleted',
  },
  visible: visibleAppointments,
  sorts: { start: 'appointments.start_at' },
});

/** Interface rule 4: events only for appointments created in Hearth (not synced from a calendar). */
export const madeInHearth = (row: AppointmentRow) => row.origin === 'hearth';

export function appointmentsList(
  db: DbOrTrx,
  auth: AuthUser,
  q: Static<typeof AppointmentListQuery>,
) {
  let query = appointments.visible(db, auth);
  const invited = (column: 'person_id' | 'user_id', id: number) =>
    db
      .selectFrom('appointment_invitees')
      .select('appointment_id')
      .where('account_id', '=', auth.accountId)
      .where(column, '=', id);
  if (q.personId !== undefined)
    query = query.where('appointments.id', 'in', invited('person_id', q.personId));
  if (q.userId !== undefined)
    query = query.where('appointments.id', 'in', invited('user_id', q.userId));
  if (q.startAfter)
    query = query.where('appointments.start_at', '>=', isoField(q.startAfter, 'startAfter'));
  if (q.startBefore)
    query = query.where('appointments.start_at', '<=', isoField(q.startBefore, 'startBefore'));
  return query;
}

export function inviteesOf(db: DbOrTrx, ids: number[]): Promise<InviteeRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('appointment_invitees')
    .selectAll()
    .where('appointment_id', 'in', ids)
    .orderBy('id')
    .execute();
}

/** typeId and outcomeId, when given, must name a type and an outcome of the caller's account. */
async function checkLabels(
  trx: Trx,
  dialect: DialectName,
  accountId: number,
  b: { typeId?: number | null; outcomeId?: number | null },
) {
  if (b.typeId != null) await requireLabel(trx, dialect, APPOINTMENT_TYPES, accountId, b.typeId);
  if (b.outcomeId != null)
    await requireLabel(trx, dialect, APPOINTMENT_OUTCOMES, accountId, b.outcomeId);
}

function checkedTimes(start: string, end: string) {
  if (end < start) throw badRequest("'end' is before 'start'");
  return { start_at: start, end_at: end };
}

export async function newAppointmentValues(
  trx: Trx,
  dialect: DialectName,
  auth: AuthUser,
  b: Static<typeof AppointmentCreateBody>,
) {
  const times = checkedTimes(isoField(b.start, 'start'), isoField(b.end, 'end'));
  await checkLabels(trx, dialect, auth.accountId, b);
  return {
    title: b.title,
    ...times,
    all_day: toBool(b.allDay) ? 1 : 0,
    description: b.description ?? '',
    location: b.location ?? '',
    type_id: b.typeId ?? null,
    outcome_id: b.outcomeId ?? null,
    origin: 'hearth',
    created_by_id: await creatorOf(trx, auth, b.createdById),
  };
}

/** As in the real API: an Owner or Admin may name who made it; anyone else made it themselves. */
async function creatorOf(trx: Trx, auth: AuthUser, createdById: number | undefined) {
  if (createdById === undefined || !seesWholeAccount(auth)) return auth.userId;
  return (await requireAccountUser(trx, auth.accountId, createdById, 'createdById')).id;
}

/** Only the fields sent change. */
export async function changedAppointmentValues(
  trx: Trx,
  dialect: DialectName,
  auth: AuthUser,
  row: AppointmentRow,
  b: Static<typeof AppointmentUpdateBody>,
) {
  const times = checkedTimes(
    b.start ? isoField(b.start, 'start') : row.start_at,
    b.end ? isoField(b.end, 'end') : row.end_at,
  );
  await checkLabels(trx, dialect, auth.accountId, b);
  return {
    title: b.title ?? row.title,
    ...times,
    all_day: b.allDay === undefined ? row.all_day : toBool(b.allDay) ? 1 : 0,
    description: b.description ?? row.description,
    location: b.location ?? row.location,
    type_id: b.typeId === undefined ? row.type_id : b.typeId,
    outcome_id: b.outcomeId === undefined ? row.outcome_id : b.outcomeId,
  };
}

/** The invitees of a write, when it names them (a PUT without `invitees` keeps them). */
export const inviteesOfWrite =
  (auth: AuthUser, invitees: Static<typeof appointmentFields.invitees> | undefined) =>
  async (trx: Trx, row: AppointmentRow, write: { at: string }) => {
    if (invitees) await inviteAndTouch(trx, auth, row.id, invitees, write.at);
  };
