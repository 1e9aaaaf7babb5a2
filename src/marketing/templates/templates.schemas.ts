import { Type } from '@sinclair/typebox';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { mergeBodyFields, PersonIdField, Recipients } from './templates.merge.js';

export const Template = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  subject: Type.String({ description: 'May hold %merge_fields%' }),
  body: Type.String({ description: 'May hold %merge_fields%' }),
  isShared: Type.Boolean({
    description: 'Shared templates are visible to every user of the account',
  }),
  createdById: Nullable(Type.Integer()),
});

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  subject: Type.String({ maxLength: 1000 }),
  body: Type.String({ maxLength: 200_000 }),
  isShared: Bool(),
};

export const TemplateCreateBody = Type.Object(
  {
    name: fields.name,
    subject: Type.Optional(fields.subject),
    body: Type.Optional(fields.body),
    isShared: Type.Optional(fields.isShared),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const TemplateUpdateBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    subject: Type.Optional(fields.subject),
    body: Type.Optional(fields.body),
    isShared: Type.Optional(fields.isShared),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const TemplateListQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ description: 'Substring of the name, case-insensitive' })),
    isShared: Type.Optional(Bool()),
    sort: Type.Optional(
      Type.String({ description: 'id, name, created or updated; -field for descending' }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const TemplateGetQuery = Type.Object(
  {
    mergePersonId: Type.Optional(PersonIdField),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const TemplateMergeBody = Type.Object(
  {
    ...mergeBodyFields,
    mergePersonId: PersonIdField,
    recipients: Type.Optional(Recipients('email')),
  },
  { additionalProperties: false },
);
