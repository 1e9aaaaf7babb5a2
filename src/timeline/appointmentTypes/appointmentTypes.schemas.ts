import { Type } from '@sinclair/typebox';
import { PageQuery } from '../../platform/http/pagination.js';
import { MAX_ID, SystemField } from '../../platform/http/schemas.js';
import type { LabelKind } from './appointmentTypes.kinds.js';

export const Label = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  orderWeight: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
});

const LabelName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Weight = Type.Integer({
  minimum: -1000000,
  maximum: 1000000,
  description: 'Position in the list; the list is renumbered 10, 20, 30… around it',
});

export const LabelCreateBody = Type.Object(
  { name: LabelName, orderWeight: Type.Optional(Weight), ...SystemField },
  { additionalProperties: false },
);

export const LabelUpdateBody = Type.Object(
  { name: Type.Optional(LabelName), orderWeight: Type.Optional(Weight), ...SystemField },
  { additionalProperties: false },
);

export const LabelListQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ description: 'Exact name' })),
    sort: Type.Optional(
      Type.String({ description: 'orderWeight (default), id or name; -field for descending' }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** The target of a deletion, named by `assignTypeId` or `assignOutcomeId`, in the query or the body. */
export function labelDeleteSchemas(kind: LabelKind) {
  const assign = Type.Integer({
    minimum: 1,
    maximum: MAX_ID,
    description: `The ${kind.noun} that receives the appointments of the deleted one`,
  });
  return {
    querystring: Type.Object(
      { [kind.assignParam]: Type.Optional(assign), system: Type.Optional(Type.String()) },
      { additionalProperties: false },
    ),
    body: Type.Union([
      Type.Object(
        { [kind.assignParam]: Type.Optional(assign), ...SystemField },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  };
}
