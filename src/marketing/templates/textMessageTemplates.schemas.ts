import { Type } from '@sinclair/typebox';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { mergeBodyFields, PersonIdField, Recipients } from './templates.merge.js';

export const TextMessageTemplate = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  message: Type.String({ description: 'May hold %merge_fields%' }),
  isShared: Type.Boolean({
    description: 'Shared templates are visible to every user of the account',
  }),
  createdById: Nullable(Type.Integer()),
});

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  message: Type.String({ maxLength: 10_000 }),
  isShared: Bool(),
};

export const TextTemplateCreateBody = Type.Object(
  {
    name: fields.name,
    message: fields.message,
    isShared: Type.Optional(fields.isShared),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const TextTemplateUpdateBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    message: Type.Optional(fields.message),
    isShared: Type.Optional(fields.isShared),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const TextTemplateListQuery = Type.Object(
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

export const TextTemplateMergeBody = Type.Object(
  { ...mergeBodyFields, personId: PersonIdField, recipients: Type.Optional(Recipients('phone')) },
  { additionalProperties: false },
);

export const TextTemplateMerged = Type.Object({
  templateId: Type.Integer(),
  personId: Type.Integer(),
  mergedTemplate: Type.String({ description: 'The message with its merge fields applied' }),
});
