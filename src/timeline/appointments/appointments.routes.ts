import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { presentAppointment } from './appointments.presenter.js';
import {
  appointments,
  appointmentsList,
  changedAppointmentValues,
  inviteesOf,
  inviteesOfWrite,
  madeInHearth,
  newAppointmentValues,
} from './appointments.repo.js';
import {
  Appointment,
  AppointmentCreateBody,
  AppointmentListQuery,
  AppointmentUpdateBody,
} from './appointments.schemas.js';

const tags = ['appointments'];

export const appointmentsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db, dialect } = ctx;
  const respond = async (auth: AuthUser, id: number) => {
    const row = await appointments.get(db, auth, id);
    return presentAppointment(row, await inviteesOf(db, [row.id]));
  };

  app.get(
    '/v1/appointments',
    {
      schema: {
        tags,
        summary: 'Appointments (filters personId, userId — invitees —, startAfter, startBefore)',
        querystring: AppointmentListQuery,
        response: responses({ 200: ListEnvelope('appointments', Appointment) }),
      },
    },
    async (request) => {
      const query = appointmentsList(db, request.auth, request.query);
      const page = await appointments.page(request, ctx, 'appointments', query, request.query);
      const invitees = await inviteesOf(
        db,
        page.rows.map((r) => r.id),
      );
      const of = (id: number) => invitees.filter((i) => i.appointment_id === id);
      return {
        _metadata: page.metadata,
        appointments: page.rows.map((r) => presentAppointment(r, of(r.id))),
      };
    },
  );

  app.get(
    '/v1/appointments/:id',
    {
      schema: {
        tags,
        summary: 'An appointment',
        params: IdParams,
        response: responses({ 200: Appointment }),
      },
    },
    async (request) => respond(request.auth, request.params.id),
  );

  app.post(
    '/v1/appointments',
    {
      schema: {
        tags,
        summary: 'Create an appointment (invitees: users, people or email addresses)',
        body: AppointmentCreateBody,
        response: responses({ 201: Appointment }),
      },
    },
    async (request, reply) => {
      const { auth, body } = request;
      const id = await appointments.create(
        ctx,
        auth,
        (trx) => newAppointmentValues(trx, dialect, auth, body),
        { after: inviteesOfWrite(auth, body.invitees) },
      );
      return reply.code(201).send(await respond(auth, id));
    },
  );

  app.put(
    '/v1/appointments/:id',
    {
      schema: {
        tags,
        summary: 'Change an appointment; invitees, when sent, are replaced whole',
        params: IdParams,
        body: AppointmentUpdateBody,
        response: responses({ 200: Appointment }),
      },
    },
    async (request) => {
      const { auth, body } = request;
      await appointments.update(
        ctx,
        auth,
        request.params.id,
        (trx, row) => changedAppointmentValues(trx, dialect, auth, row, body),
        { emits: madeInHearth, after: inviteesOfWrite(auth, body.invitees) },
      );
      return respond(auth, request.params.id);
    },
  );

  app.delete(
    '/v1/appointments/:id',
    {
      schema: {
        tags,
        summary: 'Delete an appointment',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await appointments.remove(ctx, request.auth, request.params.id, { emits: madeInHearth });
      return reply.code(204).send(null);
    },
  );
};
