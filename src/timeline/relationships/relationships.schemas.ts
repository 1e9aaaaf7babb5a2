import { Type } from '@sinclair/typebox';
import { Bool, SystemField } from '../../platform/http/schemas.js';
import { allOptional, timelineListQuery } from '../timeline.shared.js';
import { AddressIn } from '../../contacts/people/people.schemas.js';

const ContactIn = Type.Union([
  Type.String({ minLength: 1, maxLength: 320 }),
  Type.Object(
    {
      value: Type.String({ minLength: 1, maxLength: 320 }),
      type: Type.Optional(Type.String({ maxLength: 50 })),
      isPrimary: Type.Optional(Bool()),
    },
    { additionalProperties: false },
  ),
]);
const ContactOut = Type.Object({
  value: Type.String(),
  type: Type.String(),
  isPrimary: Type.Boolean(),
  normalized: Type.Optional(Type.String()),
});

export const Relationship = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  personId: Type.Integer(),
  name: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  type: Type.String(),
  emails: Type.Array(ContactOut),
  phones: Type.Array(ContactOut),
  addresses: Type.Array(Type.Record(Type.String(), Type.String())),
});
const fields = {
  personId: Type.Integer({ minimum: 1 }),
  name: Type.String({ maxLength: 300 }),
  firstName: Type.String({ maxLength: 150 }),
  lastName: Type.String({ maxLength: 150 }),
  type: Type.String({ maxLength: 100, description: 'Spouse, Partner, Parent, Child, Friend, …' }),
  emails: Type.Array(ContactIn, { maxItems: 20 }),
  phones: Type.Array(ContactIn, { maxItems: 20 }),
  addresses: Type.Array(AddressIn, { maxItems: 10 }),
};
export const RelationshipCreateBody = Type.Object(
  { ...allOptional(fields), personId: fields.personId, ...SystemField },
  { additionalProperties: false },
);
export const RelationshipUpdateBody = Type.Object(
  { ...allOptional(fields), ...SystemField },
  { additionalProperties: false },
);
export const RelationshipListQuery = Type.Object(timelineListQuery, {
  additionalProperties: false,
});
