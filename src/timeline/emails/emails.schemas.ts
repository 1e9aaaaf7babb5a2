import { Type } from '@sinclair/typebox';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';
import { allOptional, timelineListQuery } from '../timeline.shared.js';

const Address = Type.String({ maxLength: 320 });
const Addresses = Type.Union([Address, Type.Array(Address, { maxItems: 100 })], {
  description: 'an address or a list of addresses',
});

export const Email = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  personId: Type.Integer(),
  subject: Type.String(),
  body: Type.String(),
  isHtml: Type.Boolean(),
  from: Type.String(),
  to: Type.Array(Type.String()),
  cc: Type.Array(Type.String()),
  isIncoming: Type.Boolean(),
  sentAt: Nullable(Type.String()),
  userId: Nullable(Type.Integer()),
  system: Type.String(),
  messageId: Nullable(
    Type.String({ description: 'its Message-ID, for mail of a connected mailbox' }),
  ),
  threadId: Nullable(
    Type.String({
      description: 'the Message-ID that starts its conversation: group by it to show threads',
    }),
  ),
  htmlBody: Nullable(
    Type.String({ description: 'the HTML part, sanitised (no script, no remote content)' }),
  ),
  mailboxId: Nullable(Type.Integer()),
});
const fields = {
  personId: Type.Integer({ minimum: 1 }),
  subject: Type.String({ maxLength: 1000 }),
  body: Type.String({ maxLength: 500_000 }),
  isHtml: Bool(),
  from: Address,
  to: Addresses,
  cc: Addresses,
  isIncoming: Bool(),
  sentAt: Type.String({ maxLength: 40, description: 'ISO 8601; defaults to when it was logged' }),
};
export const EmailCreateBody = Type.Object(
  { ...allOptional(fields), personId: fields.personId, ...SystemField },
  { additionalProperties: false },
);
export const EmailUpdateBody = Type.Object(
  { ...allOptional(fields), ...SystemField },
  { additionalProperties: false },
);
export const EmailListQuery = Type.Object(timelineListQuery, { additionalProperties: false });
