import { Type } from '@sinclair/typebox';
import { PageQuery } from '../../platform/http/pagination.js';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';

export const PipelineStage = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  orderWeight: Type.Integer(),
  color: Type.String(),
  closedStage: Type.Boolean(),
  outcome: Nullable(
    Type.String({ description: 'won or lost: deals marked won (lost) move to this stage' }),
  ),
});

export const Pipeline = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  orderWeight: Type.Integer(),
  stages: Type.Array(PipelineStage),
  created: Type.String(),
  updated: Type.String(),
});

const Name = Type.String({ minLength: 1, maxLength: 150, pattern: '\\S' });
const Description = Type.String({ maxLength: 5000 });
const Weight = Type.Integer({ minimum: -1000000, maximum: 1000000 });

export const PipelineStageInput = Type.Object(
  {
    id: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Present: update that stage. Absent: create a new stage',
      }),
    ),
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    orderWeight: Type.Optional(Weight),
    color: Type.Optional(Type.String({ maxLength: 50 })),
    closedStage: Type.Optional(Bool()),
    outcome: Type.Optional(
      Type.Union([Type.Literal('won'), Type.Literal('lost'), Type.Null()], {
        description:
          'won or lost: a deal marked won (lost) moves to this stage, which is then closed; null: neither',
      }),
    ),
  },
  { additionalProperties: false },
);

const pipelineFields = {
  description: Type.Optional(Description),
  orderWeight: Type.Optional(Weight),
  stages: Type.Optional(Type.Array(PipelineStageInput, { maxItems: 100 })),
  ...SystemField,
};

export const PipelineCreateBody = Type.Object(
  { name: Name, ...pipelineFields },
  { additionalProperties: false },
);
export const PipelineUpdateBody = Type.Object(
  { name: Type.Optional(Name), ...pipelineFields },
  { additionalProperties: false },
);

export const PipelineListQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ description: 'Case-insensitive substring of the name' })),
    id: Type.Optional(Type.String({ description: 'Comma-separated pipeline ids' })),
    sort: Type.Optional(
      Type.String({ description: 'orderWeight (default), id or name; -field for descending' }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const PipelineStageParams = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  stageId: Type.Integer({ minimum: 1 }),
});
