import { Type } from '@sinclair/typebox';
import { Bool, MAX_ID, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { allOptional } from '../timeline.shared.js';

// The real API's examples carry `name` (and a person's `email`) beside the id; the record's own
// name is what Hearth shows, so they are accepted and read from the user or person instead.
const EchoedName = Type.Optional(
  Type.String({ maxLength: 300, description: "Ignored: the record's own name is shown" }),
);
const EchoedEmail = Type.Optional(
  Type.String({ maxLength: 320, description: "Ignored: the person's own emails are kept" }),
);
const InviteeIn = Type.Union([
  Type.Object(
    { userId: Type.Integer({ minimum: 1 }), name: EchoedName },
    { additionalProperties: false },
  ),
  Type.Object(
    { personId: Type.Integer({ minimum: 1 }), name: EchoedName, email: EchoedEmail },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      email: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$' }),
      name: Type.Optional(Type.String({ maxLength: 300 })),
    },
    { additionalProperties: false },
  ),
]);
const InviteeOut = Type.Object({
  userId: Type.Optional(Type.Integer()),
  personId: Type.Optional(Type.Integer()),
  email: Type.Optional(Type.String()),
  name: Type.String(),
});
export const Appointment = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  title: Type.String(),
  start: Type.String(),
  end: Type.String(),
  allDay: Type.Boolean(),
  description: Type.String(),
  location: Type.String(),
  typeId: Nullable(Type.Integer()),
  outcomeId: Nullable(Type.Integer()),
  origin: Type.String(),
  createdById: Nullable(Type.Integer()),
  invitees: Type.Array(InviteeOut),
});
export const appointmentFields = {
  title: Type.String({ minLength: 1, maxLength: 500 }),
  start: Type.String({ maxLength: 40, description: 'ISO 8601' }),
  end: Type.String({ maxLength: 40, description: 'ISO 8601' }),
  allDay: Bool(),
  description: Type.String({ maxLength: 20_000 }),
  location: Type.String({ maxLength: 1000 }),
  typeId: Nullable(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ID,
      description: 'An appointment type of the account (GET /v1/appointmentTypes); null clears it',
    }),
  ),
  outcomeId: Nullable(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ID,
      description:
        'An appointment outcome of the account (GET /v1/appointmentOutcomes); null clears it',
    }),
  ),
  invitees: Type.Array(InviteeIn, { maxItems: 100 }),
};
export const AppointmentCreateBody = Type.Object(
  {
    ...allOptional(appointmentFields),
    title: appointmentFields.title,
    start: appointmentFields.start,
    end: appointmentFields.end,
    createdById: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description:
          "The user who made it; Owner and Admin only (as in the real API, anyone else's is the caller's)",
      }),
    ),
    ...SystemField,
  },
  { additionalProperties: false },
);
export const AppointmentUpdateBody = Type.Object(
  { ...allOptional(appointmentFields), ...SystemField },
  { additionalProperties: false },
);
export const AppointmentListQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(Type.String()),
    system: Type.Optional(Type.String()),
    personId: Type.Optional(Type.Integer({ minimum: 1 })),
    userId: Type.Optional(Type.Integer({ minimum: 1 })),
    startAfter: Type.Optional(Type.String({ maxLength: 40 })),
    startBefore: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
