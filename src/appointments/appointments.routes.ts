import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Selectable } from 'kysely';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { type AuthUser, seesEveryone } from '../http/auth.js';
import type { DbOrTrx, Trx } from '../db/database.js';
import { badRequest } from '../http/errors.js';
import { Bool, IdParams, MAX_ID, Nullable, responses, SystemField, toBool } from '../http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage } from '../http/pagination.js';
import { touchLastActivity, visiblePersonIds } from '../people/people.access.js';
import { emit } from '../webhooks/outbox.js';
import { APPOINTMENT_OUTCOMES, APPOINTMENT_TYPES } from '../appointmentTypes/appointmentTypes.kinds.js';
import { requireLabel } from '../appointmentTypes/appointmentTypes.repo.js';
import type { EventName } from '../webhooks/event-names.js';
import { isoSeconds } from '../time.js';
import { allOptional, missing, requireAccountUser, requirePerson, timelineSort } from '../timeline/timeline.shared.js';
import type { AppointmentInviteesTable, AppointmentsTable } from './appointments.tables.js';

type AppointmentRow = Selectable<AppointmentsTable>;
type InviteeRow = Selectable<AppointmentInviteesTable>;
const tags = ['appointments'];

const InviteeIn = Type.Union([
  Type.Object({ userId: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  Type.Object({ personId: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  Type.Object({ email: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$' }), name: Type.Optional(Type.String({ maxLength: 300 })) }, { additionalProperties: false }),
]);
const InviteeOut = Type.Object({ userId: Type.Optional(Type.Integer()), personId: Type.Optional(Type.Integer()), email: Type.Optional(Type.String()), name: Type.String() });
const Appointment = Type.Object({
  id: Type.Integer(), created: Type.String(), updated: Type.String(), title: Type.String(), start: Type.String(), end: Type.String(),
  allDay: Type.Boolean(), description: Type.String(), location: Type.String(), typeId: Nullable(Type.Integer()), outcomeId: Nullable(Type.Integer()), origin: Type.String(),
  createdById: Nullable(Type.Integer()), invitees: Type.Array(InviteeOut),
});
const fields = {
  title: Type.String({ minLength: 1, maxLength: 500 }),
  start: Type.String({ maxLength: 40, description: 'ISO 8601' }),
  end: Type.String({ maxLength: 40, description: 'ISO 8601' }),
  allDay: Bool(),
  description: Type.String({ maxLength: 20_000 }),
  location: Type.String({ maxLength: 1000 }),
  typeId: Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'An appointment type of the account (GET /v1/appointmentTypes); null clears it' })),
  outcomeId: Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'An appointment outcome of the account (GET /v1/appointmentOutcomes); null clears it' })),
  invitees: Type.Array(InviteeIn, { maxItems: 100 }),
};
const CreateBody = Type.Object({ ...allOptional(fields), title: fields.title, start: fields.start, end: fields.end, ...SystemField }, { additionalProperties: false });
const UpdateBody = Type.Object({ ...allOptional(fields), ...SystemField }, { additionalProperties: false });
const ListQuery = Type.Object({
  ...PageQuery, sort: Type.Optional(Type.String()), system: Type.Optional(Type.String()),
  personId: Type.Optional(Type.Integer({ minimum: 1 })), userId: Type.Optional(Type.Integer({ minimum: 1 })),
  startAfter: Type.Optional(Type.String({ maxLength: 40 })), startBefore: Type.Optional(Type.String({ maxLength: 40 })),
}, { additionalProperties: false });

function timestamp(raw: string, field: string): string {
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw badRequest(`'${field}' must be an ISO 8601 timestamp`);
  return isoSeconds(ms);
}

export function presentAppointment(row: AppointmentRow, invitees: InviteeRow[]) {
  return {
    id: row.id, created: row.created_at, updated: row.updated_at, title: row.title, start: row.start_at, end: row.end_at,
    allDay: row.all_day === 1, description: row.description, location: row.location, typeId: row.type_id, outcomeId: row.outcome_id, origin: row.origin,
    createdById: row.created_by_id,
    invitees: invitees.map((i) => ({
      ...(i.user_id !== null ? { userId: i.user_id } : {}), ...(i.person_id !== null ? { personId: i.person_id } : {}),
      ...(i.email !== null ? { email: i.email } : {}), name: i.name,
    })),
  };
}

/** Owner/Admin: every appointment; others: those they created, are invited to, or that invite a person they may see. */
function visibleAppointments(db: DbOrTrx, auth: AuthUser) {
  const query = db.selectFrom('appointments').selectAll('appointments').where('appointments.account_id', '=', auth.accountId);
  if (seesEveryone(auth)) return query;
  return query.where((eb) => eb.or([
    eb('appointments.created_by_id', '=', auth.userId),
    eb('appointments.id', 'in', db.selectFrom('appointment_invitees').select('appointment_id').where('account_id', '=', auth.accountId).where((e) => e.or([
      e('user_id', '=', auth.userId), e('person_id', 'in', visiblePersonIds(db, auth)),
    ]))),
  ]));
}

/** Validates and stores invitees; returns the people invited (their lastActivity moves). */
async function saveInvitees(trx: Trx, auth: AuthUser, appointmentId: number, invitees: typeof fields.invitees.static): Promise<number[]> {
  await trx.deleteFrom('appointment_invitees').where('account_id', '=', auth.accountId).where('appointment_id', '=', appointmentId).execute();
  const people: number[] = [];
  for (const invitee of invitees) {
    let values: { user_id?: number; person_id?: number; email?: string; name: string };
    if ('userId' in invitee) values = { user_id: invitee.userId, name: (await requireAccountUser(trx, auth.accountId, invitee.userId, 'invitees.userId')).name };
    else if ('personId' in invitee) {
      await requirePerson(trx, auth, invitee.personId);
      const p = await trx.selectFrom('people').select('name').where('id', '=', invitee.personId).executeTakeFirstOrThrow();
      values = { person_id: invitee.personId, name: p.name };
      people.push(invitee.personId);
    } else values = { email: invitee.email.trim().toLowerCase(), name: invitee.name ?? '' };
    await trx.insertInto('appointment_invitees').values({ account_id: auth.accountId, appointment_id: appointmentId, ...values }).execute();
  }
  return [...new Set(people)];
}

export const appointmentsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config, dialect } = ctx;
  const find = (dbx: DbOrTrx, auth: AuthUser, id: number) => visibleAppointments(dbx, auth).where('appointments.id', '=', id).executeTakeFirst();
  const inviteesOf = (ids: number[]) => ids.length === 0 ? Promise.resolve([]) : db.selectFrom('appointment_invitees').selectAll().where('appointment_id', 'in', ids).orderBy('id').execute();
  const respond = async (auth: AuthUser, id: number) => presentAppointment((await find(db, auth, id))!, await inviteesOf([id]));
  /** Interface rule 4: events only for appointments created in Hearth. */
  const emitIfHearth = (trx: Trx, row: { origin: string; id: number }, accountId: number, event: EventName, now: number) =>
    row.origin === 'hearth' ? emit(trx, accountId, event, [row.id], undefined, now) : Promise.resolve();
  /** typeId and outcomeId, when given, must name a type and an outcome of the caller's account. */
  const checkLabels = async (trx: Trx, accountId: number, b: { typeId?: number | null; outcomeId?: number | null }) => {
    if (b.typeId != null) await requireLabel(trx, dialect, APPOINTMENT_TYPES, accountId, b.typeId);
    if (b.outcomeId != null) await requireLabel(trx, dialect, APPOINTMENT_OUTCOMES, accountId, b.outcomeId);
  };

  app.get('/v1/appointments', {
    schema: { tags, summary: 'Appointments (filters personId, userId — invitees —, startAfter, startBefore)', querystring: ListQuery, response: responses({ 200: ListEnvelope('appointments', Appointment) }) },
  }, async (request) => {
    const q = request.query;
    let query = visibleAppointments(db, request.auth);
    const invited = (column: 'person_id' | 'user_id', id: number) => db.selectFrom('appointment_invitees').select('appointment_id').where('account_id', '=', request.auth.accountId).where(column, '=', id);
    if (q.personId !== undefined) query = query.where('appointments.id', 'in', invited('person_id', q.personId));
    if (q.userId !== undefined) query = query.where('appointments.id', 'in', invited('user_id', q.userId));
    if (q.startAfter) query = query.where('appointments.start_at', '>=', timestamp(q.startAfter, 'startAfter'));
    if (q.startBefore) query = query.where('appointments.start_at', '<=', timestamp(q.startBefore, 'startBefore'));
    const page = await paginate<AppointmentRow>(request, {
      collection: 'appointments', query, page: readPage(q), sort: timelineSort(q.sort, 'appointments', { start: 'appointments.start_at' }),
      idExpression: 'appointments.id', publicUrl: config.publicUrl,
    });
    const invitees = await inviteesOf(page.rows.map((r) => r.id));
    return { _metadata: page.metadata, appointments: page.rows.map((r) => presentAppointment(r, invitees.filter((i) => i.appointment_id === r.id))) };
  });

  app.get('/v1/appointments/:id', {
    schema: { tags, summary: 'An appointment', params: IdParams, response: responses({ 200: Appointment }) },
  }, async (request) => {
    const row = (await find(db, request.auth, request.params.id)) ?? missing('Appointment', request.params.id);
    return presentAppointment(row, await inviteesOf([row.id]));
  });

  app.post('/v1/appointments', {
    schema: { tags, summary: 'Create an appointment (invitees: users, people or email addresses)', body: CreateBody, response: responses({ 201: Appointment }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const b = request.body;
    const start = timestamp(b.start, 'start');
    const end = timestamp(b.end, 'end');
    if (end < start) throw badRequest("'end' is before 'start'");
    const now = ctx.clock.now();
    const at = isoSeconds(now);
    const id = await db.transaction().execute(async (trx) => {
      await checkLabels(trx, auth.accountId, b);
      const row = await trx.insertInto('appointments').values({
        account_id: auth.accountId, title: b.title, start_at: start, end_at: end, all_day: toBool(b.allDay) ? 1 : 0, description: b.description ?? '',
        location: b.location ?? '', type_id: b.typeId ?? null, outcome_id: b.outcomeId ?? null, origin: 'hearth', created_by_id: auth.userId, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      for (const personId of await saveInvitees(trx, auth, row.id, b.invitees ?? [])) await touchLastActivity(trx, auth.accountId, personId, at);
      await emit(trx, auth.accountId, 'appointmentsCreated', [row.id], undefined, now);
      return row.id;
    });
    return reply.code(201).send(await respond(auth, id));
  });

  app.put('/v1/appointments/:id', {
    schema: { tags, summary: 'Change an appointment; invitees, when sent, are replaced whole', params: IdParams, body: UpdateBody, response: responses({ 200: Appointment }) },
  }, async (request) => {
    const auth = request.auth;
    const b = request.body;
    const now = ctx.clock.now();
    const at = isoSeconds(now);
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Appointment', request.params.id);
      const start = b.start ? timestamp(b.start, 'start') : row.start_at;
      const end = b.end ? timestamp(b.end, 'end') : row.end_at;
      if (end < start) throw badRequest("'end' is before 'start'");
      await checkLabels(trx, auth.accountId, b);
      await trx.updateTable('appointments').set({
        title: b.title ?? row.title, start_at: start, end_at: end, all_day: b.allDay === undefined ? row.all_day : toBool(b.allDay) ? 1 : 0,
        description: b.description ?? row.description, location: b.location ?? row.location,
        type_id: b.typeId === undefined ? row.type_id : b.typeId, outcome_id: b.outcomeId === undefined ? row.outcome_id : b.outcomeId, updated_at: at,
      }).where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      if (b.invitees) for (const personId of await saveInvitees(trx, auth, row.id, b.invitees)) await touchLastActivity(trx, auth.accountId, personId, at);
      await emitIfHearth(trx, row, auth.accountId, 'appointmentsUpdated', now);
    });
    return respond(auth, request.params.id);
  });

  app.delete('/v1/appointments/:id', {
    schema: { tags, summary: 'Delete an appointment', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    const auth = request.auth;
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Appointment', request.params.id);
      await trx.deleteFrom('appointments').where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emitIfHearth(trx, row, auth.accountId, 'appointmentsDeleted', ctx.clock.now());
    });
    return reply.code(204).send(null);
  });
};
