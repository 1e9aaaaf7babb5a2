import { Type } from '@sinclair/typebox';
import { Bool, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';

const FIELD_TYPES = ['text', 'date', 'number', 'dropdown'] as const;

export const CustomField = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: 'The key used on records, e.g. customClosingDate' }),
  label: Type.String(),
  type: Type.String(),
  choices: Type.Array(Type.String()),
  orderWeight: Type.Integer(),
  hideIfEmpty: Type.Boolean(),
  isRecurring: Type.Optional(
    Type.Boolean({ description: 'Date fields only: the date comes back every year' }),
  ),
  created: Type.String(),
  updated: Type.String(),
});

const Choices = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 });

export const CustomFieldCreateBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100 }),
    type: Type.Union(FIELD_TYPES.map((t) => Type.Literal(t))),
    choices: Type.Optional(Choices),
    orderWeight: Type.Optional(Type.Integer()),
    hideIfEmpty: Type.Optional(Bool()),
    isRecurring: Type.Optional(Bool()),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const CustomFieldUpdateBody = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    type: Type.Optional(Type.String()),
    choices: Type.Optional(Choices),
    orderWeight: Type.Optional(Type.Integer()),
    hideIfEmpty: Type.Optional(Bool()),
    isRecurring: Type.Optional(Bool()),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const CustomFieldListQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(Type.String()),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
