import { Type } from '@sinclair/typebox';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';

export const Notification = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  type: Type.String({ description: 'newLead, returningLead, leadOffer, handOver or automation' }),
  title: Type.String(),
  message: Type.String(),
  personId: Type.Integer(),
  eventId: Nullable(Type.Integer()),
  read: Type.Boolean(),
  readAt: Nullable(Type.String()),
});

export const NotificationListQuery = Type.Object(
  {
    ...PageQuery,
    unread: Type.Optional(Bool({ description: 'true: only notifications not yet read' })),
    personId: Type.Optional(Type.Integer({ minimum: 1 })),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const NotificationUpdateBody = Type.Object(
  { read: Bool(), ...SystemField },
  { additionalProperties: false },
);

export const MarkAllReadBody = Type.Optional(
  Type.Object({ ...SystemField }, { additionalProperties: false }),
);
