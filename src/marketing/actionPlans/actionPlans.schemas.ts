import { Type } from '@sinclair/typebox';
import { Nullable, SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { TASK_TYPES } from '../../timeline/tasks/tasks.repo.js';

/**
 * task: a task for the agent; email: an email logged from a template; text: Hearth sends no text
 * messages, so a Text task carrying the merged message reminds the agent to send it.
 */
const STEP_KINDS = ['task', 'email', 'text'] as const;
const PLAN_STATUSES = ['Active', 'Inactive'] as const;
export const PLAN_PERSON_STATUSES = ['Running', 'Paused', 'Completed'] as const;

const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));

export const ActionPlanStep = Type.Object({
  id: Type.Integer(),
  order: Type.Integer(),
  delayDays: Type.Integer({
    description: 'Days after the plan starts for a person when this step falls due',
  }),
  kind: literals(STEP_KINDS),
  taskType: Nullable(Type.String()),
  taskName: Nullable(Type.String()),
  templateId: Nullable(Type.Integer()),
});

export const ActionPlan = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  description: Type.String(),
  status: Type.String(),
  steps: Type.Array(ActionPlanStep),
});

export const StepInput = Type.Object(
  {
    id: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'An existing step of this plan to keep (PUT); omit for a new step',
      }),
    ),
    order: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100_000,
        description: 'Steps run in ascending order; default: their place in the list',
      }),
    ),
    delayDays: Type.Integer({ minimum: 0, maximum: 3650 }),
    kind: literals(STEP_KINDS),
    taskType: Type.Optional(literals(TASK_TYPES)),
    taskName: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    templateId: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'email steps: an email template (/v1/templates); text steps: a text message template (/v1/textMessageTemplates)',
      }),
    ),
  },
  { additionalProperties: false },
);

const Steps = Type.Array(StepInput, { maxItems: 100 });

export const ActionPlanCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    status: Type.Optional(literals(PLAN_STATUSES)),
    steps: Type.Optional(Steps),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const ActionPlanUpdateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    status: Type.Optional(literals(PLAN_STATUSES)),
    steps: Type.Optional(
      Type.Array(StepInput, {
        maxItems: 100,
        description:
          'Replaces the steps: ones with an id are kept and updated, others created, missing ones removed',
      }),
    ),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const ActionPlanListQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(literals(PLAN_STATUSES)),
    name: Type.Optional(Type.String()),
    sort: Type.Optional(
      Type.String({ description: 'id, name, created or updated; -field for descending' }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const ActionPlanPerson = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  personId: Type.Integer(),
  actionPlanId: Type.Integer(),
  actionPlanName: Type.String(),
  status: literals(PLAN_PERSON_STATUSES),
  started: Type.String(),
  completed: Nullable(Type.String()),
  stepsCompleted: Type.Integer(),
});

export const ActionPlanPersonListQuery = Type.Object(
  {
    ...PageQuery,
    personId: Type.Optional(Type.Integer({ minimum: 1 })),
    actionPlanId: Type.Optional(Type.Integer({ minimum: 1 })),
    status: Type.Optional(literals(PLAN_PERSON_STATUSES)),
    sort: Type.Optional(
      Type.String({ description: 'id, started or updated; -field for descending' }),
    ),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const ActionPlanPersonCreateBody = Type.Object(
  {
    personId: Type.Integer({ minimum: 1 }),
    actionPlanId: Type.Integer({ minimum: 1 }),
    ...SystemField,
  },
  { additionalProperties: false },
);

export const ActionPlanPersonUpdateBody = Type.Object(
  { status: literals(['Running', 'Paused'] as const), ...SystemField },
  { additionalProperties: false },
);
