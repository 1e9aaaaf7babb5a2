import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { SystemField } from '../../platform/http/schemas.js';
import { PageQuery } from '../../platform/http/pagination.js';
import { TASK_TYPES } from '../../timeline/tasks/tasks.schemas.js';

const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));
const strict = <T extends Record<string, TSchema>>(props: T, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description ? { description } : {}) });
const Name = (max = 100) => Type.String({ minLength: 1, maxLength: max });
const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Days = Type.Integer({ minimum: 1, maximum: 3650 });

export const AUTOMATION_STATUSES = ['Active', 'Inactive'] as const;
export const RUN_STATUSES = ['Initial', 'Running', 'Paused', 'Completed', 'Cancelled'] as const;
/** Person dates a dateReached trigger can count from. */
export const DATE_FIELDS = ['created'] as const;

export const Conditions = strict(
  {
    stage: Type.Optional(Name()),
    source: Type.Optional(Name(200)),
    tags: Type.Optional(Type.Array(Name(), { maxItems: 20, description: 'the person has all' })),
    assignedUserId: Type.Optional(Id),
  },
  'Checked on the person when the trigger fires; all must hold',
);

const conditions = { conditions: Type.Optional(Conditions) };
export const Trigger = Type.Union([
  strict({
    type: Type.Literal('personCreated'),
    sources: Type.Optional(Type.Array(Name(200), { maxItems: 50 })),
    eventTypes: Type.Optional(Type.Array(Name(), { maxItems: 50 })),
    ...conditions,
  }),
  strict({ type: Type.Literal('stageChanged'), stage: Name(), ...conditions }),
  strict({ type: Type.Literal('tagAdded'), tag: Name(), ...conditions }),
  strict({ type: Type.Literal('dealStageChanged'), pipelineId: Id, stageId: Id, ...conditions }),
  strict({
    type: Type.Literal('dateReached'),
    field: literals(DATE_FIELDS),
    offsetDays: Type.Integer({ minimum: 0, maximum: 3650 }),
    ...conditions,
  }),
  strict({ type: Type.Literal('noContact'), days: Days, ...conditions }),
]);

export const Action = Type.Union([
  strict({
    type: Type.Literal('wait'),
    seconds: Type.Integer({ minimum: 1, maximum: 31_536_000 }),
  }),
  strict({ type: Type.Literal('addTag'), tag: Name() }),
  strict({ type: Type.Literal('removeTag'), tag: Name() }),
  strict({ type: Type.Literal('changeStage'), stage: Name() }),
  strict(
    {
      type: Type.Literal('assign'),
      userId: Type.Optional(Id),
      groupId: Type.Optional(Id),
      pondId: Type.Optional(Id),
    },
    'exactly one of userId, groupId (its next member in turn) or pondId',
  ),
  strict({
    type: Type.Literal('createTask'),
    name: Name(500),
    // `type` names the action, so the task's type is `taskType`.
    taskType: Type.Optional(literals(TASK_TYPES)),
    dueInDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  }),
  strict({ type: Type.Literal('sendEmail'), templateId: Id }),
  strict({ type: Type.Literal('startActionPlan'), actionPlanId: Id }),
  strict({ type: Type.Literal('notify'), message: Name(1000), userId: Type.Optional(Id) }),
  strict({ type: Type.Literal('webhook'), url: Type.String({ minLength: 1, maxLength: 2048 }) }),
]);

export type TriggerInput = Static<typeof Trigger>;
export type ActionInput = Static<typeof Action>;
export type ConditionsInput = Static<typeof Conditions>;

const Actions = Type.Array(Action, { minItems: 1, maxItems: 50 });

export const Automation = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: literals(AUTOMATION_STATUSES),
  trigger: Trigger,
  actions: Type.Array(Action),
  peopleRunning: Type.Integer({ description: 'runs Initial, Running or Paused' }),
  created: Type.String(),
  updated: Type.String(),
});

export const AutomationCreateBody = strict({
  name: Name(200),
  status: Type.Optional(literals(AUTOMATION_STATUSES)),
  trigger: Trigger,
  actions: Actions,
  ...SystemField,
});

export const AutomationUpdateBody = strict({
  name: Type.Optional(Name(200)),
  status: Type.Optional(literals(AUTOMATION_STATUSES)),
  trigger: Type.Optional(Trigger),
  actions: Type.Optional(Actions),
  ...SystemField,
});

export const AutomationListQuery = strict({
  ...PageQuery,
  status: Type.Optional(literals(AUTOMATION_STATUSES)),
  sort: Type.Optional(Type.String({ description: 'id, name, created or updated; -field' })),
  ...SystemField,
});

export const AutomationPerson = Type.Object({
  id: Type.Integer(),
  automationId: Type.Integer(),
  automationName: Type.String(),
  personId: Type.Integer(),
  status: literals(RUN_STATUSES),
  stepsCompleted: Type.Integer(),
  waitingUntil: Type.Union([Type.String(), Type.Null()]),
  created: Type.String(),
  updated: Type.String(),
});

export const AutomationPersonListQuery = strict({
  ...PageQuery,
  personId: Type.Optional(Id),
  automationId: Type.Optional(Id),
  status: Type.Optional(literals(RUN_STATUSES)),
  sort: Type.Optional(Type.String({ description: 'id, created or updated; -field' })),
  ...SystemField,
});

export const AutomationPersonCreateBody = strict({
  automationId: Id,
  personId: Id,
  ...SystemField,
});

export const AutomationPersonUpdateBody = strict({
  status: literals(['Running', 'Paused', 'Cancelled'] as const),
  ...SystemField,
});
