import { type Static, Type } from '@sinclair/typebox';
import { Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';

export const LeadFlow = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  source: Type.String(),
  status: Type.String(),
  assignedUserId: Nullable(Type.Integer()),
  groupId: Nullable(Type.Integer()),
  actionPlanId: Nullable(Type.Integer()),
  stageId: Nullable(Type.Integer()),
});

const Status = Type.Union([Type.Literal('Active'), Type.Literal('Archived')]);
const OptionalRef = (description: string) =>
  Type.Optional(Nullable(Type.Integer({ minimum: 1, description })));
const flowFields = {
  source: Type.String({
    minLength: 1,
    maxLength: 300,
    description: "The lead source this flow handles (a website's domain without www.)",
  }),
  status: Type.Optional(Status),
  assignedUserId: OptionalRef('Assign new leads to this user'),
  groupId: OptionalRef('Or share them round-robin across this group'),
  actionPlanId: OptionalRef('Start this action plan for new leads of triggering types'),
  stageId: OptionalRef('Put new leads in this stage'),
  ...SystemField,
};
export const LeadFlowCreateBody = Type.Object(flowFields, { additionalProperties: false });
export const LeadFlowUpdateBody = Type.Object(
  { ...flowFields, source: Type.Optional(flowFields.source) },
  { additionalProperties: false },
);
export type LeadFlowInput = Static<typeof LeadFlowUpdateBody>;

export const LeadFlowListQuery = Type.Object(
  {
    ...PageQuery,
    source: Type.Optional(Type.String()),
    status: Type.Optional(Status),
    sort: Type.Optional(Type.String()),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
