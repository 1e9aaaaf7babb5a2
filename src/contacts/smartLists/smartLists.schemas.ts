import { Type } from '@sinclair/typebox';
import { Bool, MAX_ID, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { PeopleListQuery } from '../people/people.schemas.js';

/** Keys of GET /v1/people that page, shape or identify rather than filter: a smart list saves none of them. */
export const NOT_FILTERS = [
  'limit',
  'offset',
  'next',
  'id',
  'fields',
  'system',
  'smartListId',
] as const;

/**
 * The filters a smart list saves: exactly those GET /v1/people accepts (derived from its query
 * schema, so a new people filter is a smart-list filter too), with the same types and coercions.
 */
export const SmartListFilters = Type.Omit(PeopleListQuery, NOT_FILTERS, {
  description: 'GET /v1/people filters, with the same names and values as its query arguments',
});

export const SmartList = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  filters: SmartListFilters,
  userId: Type.Integer({ description: 'The user who owns the list' }),
  isShared: Type.Boolean({ description: 'Shared lists are visible to every user of the account' }),
});

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  filters: SmartListFilters,
  isShared: Bool(),
};

export const SmartListCreateBody = Type.Object(
  {
    name: fields.name,
    filters: Type.Optional(fields.filters),
    isShared: Type.Optional(fields.isShared),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const SmartListUpdateBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    filters: Type.Optional(fields.filters),
    isShared: Type.Optional(fields.isShared),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const SmartListListQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ description: 'Substring of the name, case-insensitive' })),
    userId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Only lists owned by this user' }),
    ),
    isShared: Type.Optional(Bool()),
    sort: Type.Optional(
      Type.String({ description: 'id, name, created or updated; -field for descending' }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
