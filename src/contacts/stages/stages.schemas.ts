import { Type } from '@sinclair/typebox';
import { PageQuery } from '../../platform/http/pagination.js';
import { SystemField } from '../../platform/http/schemas.js';

export const Stage = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  orderWeight: Type.Integer(),
  isProtected: Type.Boolean(),
  peopleCount: Type.Integer({ description: 'People in this stage that the caller can see' }),
  created: Type.String(),
  updated: Type.String(),
});

const StageName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Weight = Type.Integer({ minimum: -1000000, maximum: 1000000 });

export const StageCreateBody = Type.Object(
  { name: StageName, orderWeight: Type.Optional(Weight), ...SystemField },
  { additionalProperties: false },
);

export const StageUpdateBody = Type.Object(
  { name: Type.Optional(StageName), orderWeight: Type.Optional(Weight), ...SystemField },
  { additionalProperties: false },
);

export const StageListQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ description: 'Exact stage name' })),
    sort: Type.Optional(
      Type.String({ description: 'orderWeight (default), id or name; -field for descending' }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const StageDeleteQuery = Type.Object(
  {
    assignStageId: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Stage that receives the people of the deleted one',
      }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const StageDeleteBody = Type.Union([
  Type.Object(
    { assignStageId: Type.Optional(Type.Integer({ minimum: 1 })), ...SystemField },
    { additionalProperties: false },
  ),
  Type.Null(),
]);
