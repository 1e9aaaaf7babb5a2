import { Type } from '@sinclair/typebox';
import { MAX_ID, Nullable } from '../../platform/http/schemas.js';
import { PeopleListQuery } from '../people/people.schemas.js';
import { BULK_ACTIONS } from './bulkActions.tables.js';

/** The filters of GET /v1/people, without its paging, sorting and field choice. */
export const BulkFilter = Type.Omit(
  PeopleListQuery,
  ['limit', 'offset', 'next', 'sort', 'fields', 'system'],
  { description: 'Act on every person GET /v1/people would list with these filters' },
);

export const BulkActionBody = Type.Object(
  {
    action: Type.Union(
      BULK_ACTIONS.map((a) => Type.Literal(a)),
      {
        description:
          'assign (value: a user id), addTag or removeTag (value: the tag), stage (value: a stage id), delete',
      },
    ),
    value: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: MAX_ID }), Type.String({ maxLength: 100 })]),
    ),
    personIds: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
        minItems: 1,
        maxItems: 10_000,
        description: 'These people (those the caller may see); or give `filter`',
      }),
    ),
    filter: Type.Optional(BulkFilter),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const BulkAction = Type.Object({
  id: Type.Integer(),
  action: Type.String(),
  value: Nullable(Type.String()),
  status: Type.String({ description: 'queued, running, done or failed' }),
  total: Type.Integer({ description: 'people the action was asked for (fixed when asked)' }),
  processed: Type.Integer(),
  changed: Type.Integer({ description: 'people the action changed (or deleted)' }),
  skipped: Type.Integer({
    description:
      'people it left as they were: already so, gone, no longer visible to the caller, or refused (see errors)',
  }),
  errors: Type.Array(Type.Object({ personId: Type.Integer(), message: Type.String() }), {
    description: 'the first 100 people the action could not change, and why',
  }),
  message: Nullable(Type.String({ description: 'why the action stopped as a whole' })),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
});
