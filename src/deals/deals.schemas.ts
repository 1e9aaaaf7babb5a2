import { Type } from '@sinclair/typebox';
import { PageQuery } from '../platform/http/pagination.js';
import { Bool, Nullable, SystemField } from '../platform/http/schemas.js';

const Money = Nullable(Type.Number({ minimum: 0 }));
const DealDate = Nullable(
  Type.String({ maxLength: 40, description: 'YYYY-MM-DD (a timestamp is cut to its date)' }),
);
const Ids = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 200 });

/** Deal fields a client may send; custom fields (`custom…`) ride along as extra keys. */
const dealFields = {
  description: Type.Optional(Type.String({ maxLength: 20000 })),
  pipelineId: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Optional: derived from stageId; if sent it must match',
    }),
  ),
  status: Type.Optional(
    Type.Union([Type.Literal('Active'), Type.Literal('Archived')], {
      description: 'DELETE makes a deal Deleted',
    }),
  ),
  price: Type.Optional(Money),
  projectedCloseDate: Type.Optional(DealDate),
  earnestMoneyDueDate: Type.Optional(DealDate),
  possessionDate: Type.Optional(DealDate),
  commissionValue: Type.Optional(Money),
  agentCommission: Type.Optional(Money),
  agentCommision: Type.Optional(Money),
  teamCommission: Type.Optional(Money),
  teamComission: Type.Optional(Money),
  orderWeight: Type.Optional(Type.Integer({ minimum: -1000000000, maximum: 1000000000 })),
  peopleIds: Type.Optional(Ids),
  userIds: Type.Optional(Ids),
  ...SystemField,
};
const Name = Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' });
const StageId = Type.Integer({ minimum: 1, description: 'A pipeline stage id' });
const customKeys = { '^custom[A-Za-z0-9_]*$': Type.Any() };

export const DealCreateBody = Type.Object(
  { name: Name, stageId: StageId, ...dealFields },
  { additionalProperties: false, patternProperties: customKeys },
);
export const DealUpdateBody = Type.Object(
  { name: Type.Optional(Name), stageId: Type.Optional(StageId), ...dealFields },
  { additionalProperties: false, patternProperties: customKeys },
);

const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const Deal = Type.Object(
  {
    id: Type.Integer(),
    created: Type.String(),
    updated: Type.String(),
    name: Type.String(),
    description: Type.String(),
    status: Type.String(),
    pipelineId: Nullable(Type.Integer()),
    pipelineName: Nullable(Type.String()),
    stageId: Nullable(Type.Integer()),
    stageName: Nullable(Type.String()),
    price: Nullable(Type.Number()),
    projectedCloseDate: Nullable(Type.String()),
    earnestMoneyDueDate: Nullable(Type.String()),
    possessionDate: Nullable(Type.String()),
    commissionValue: Nullable(Type.Number()),
    agentCommission: Nullable(Type.Number()),
    teamCommission: Nullable(Type.Number()),
    orderWeight: Type.Integer(),
    enteredStageAt: Type.String(),
    deletedAt: Nullable(Type.String()),
    createdById: Nullable(Type.Integer()),
    people: Type.Array(Ref),
    users: Type.Array(Ref),
  },
  { additionalProperties: true, description: 'Custom field values appear as extra custom… keys' },
);

export const DealListQuery = Type.Object(
  {
    ...PageQuery,
    id: Type.Optional(Type.String({ description: 'Comma-separated deal ids' })),
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Search text: deals whose name contains it (case-insensitive)',
      }),
    ),
    pipelineId: Type.Optional(Type.Integer()),
    stageId: Type.Optional(Type.Integer()),
    personId: Type.Optional(Type.Integer()),
    userId: Type.Optional(Type.Integer()),
    status: Type.Optional(
      Type.Union([Type.Literal('Active'), Type.Literal('Archived'), Type.Literal('Deleted')]),
    ),
    includeDeleted: Type.Optional(Bool({ description: 'Also list soft-deleted deals' })),
    sort: Type.Optional(
      Type.String({
        description:
          'id (default -id), created, updated, name, price, orderWeight, projectedCloseDate, enteredStageAt',
      }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
