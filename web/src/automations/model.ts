/**
 * Automations as the API has them (src/marketing/automations/automations.schemas.ts), the builder's
 * form values, and the sentence that says what one does ("When tag hot is added: …").
 */
import type { Automation, AutomationAction, AutomationConditions } from '../api/types';

export type { Automation };
export type Conditions = AutomationConditions;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (
  u: infer I,
) => void
  ? I
  : never;
/**
 * The builder edits one trigger or step whatever its kind, so it holds the API's union flattened:
 * every field of every kind, optional (a field renamed in the API still breaks here).
 */
type WithoutType<U> = U extends unknown ? Omit<U, 'type'> : never;
type Flat<U> = { type: string } & Partial<UnionToIntersection<WithoutType<U>>>;
export type Trigger = Flat<Automation['trigger']>;
export type Action = Flat<AutomationAction>;

export const TRIGGERS = [
  { id: 'personCreated', name: 'A person is created' },
  { id: 'tagAdded', name: 'A tag is added' },
  { id: 'stageChanged', name: 'The stage changes to' },
  { id: 'dealStageChanged', name: 'A deal moves to a stage' },
  { id: 'dateReached', name: 'Days after the person was created' },
  { id: 'noContact', name: 'No contact for some days' },
];
export const ACTIONS = [
  { id: 'wait', name: 'Wait' },
  { id: 'createTask', name: 'Create a task' },
  { id: 'sendEmail', name: 'Send an email template' },
  { id: 'addTag', name: 'Add a tag' },
  { id: 'removeTag', name: 'Remove a tag' },
  { id: 'changeStage', name: 'Change the stage' },
  { id: 'assign', name: 'Assign the person' },
  { id: 'startActionPlan', name: 'Start an action plan' },
  { id: 'notify', name: 'Notify a user' },
  { id: 'webhook', name: 'Call a webhook' },
];
export const WAIT_UNITS = [
  { id: '60', name: 'minutes' },
  { id: '3600', name: 'hours' },
  { id: '86400', name: 'days' },
];
export const ASSIGN_TO = [
  { id: 'user', name: 'a user' },
  { id: 'group', name: 'a group (next in turn)' },
  { id: 'pond', name: 'a pond' },
];

/** A step as the form holds it: a wait as an amount and a unit, an assignment as a target kind. */
export type StepValues = Action & { amount?: number; unit?: string; assignTo?: string };
export interface FormValues {
  name?: string;
  status?: string;
  trigger?: Trigger & { sourcesText?: string; eventTypesText?: string; tagsText?: string };
  steps?: StepValues[];
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const present = <T extends object>(value: T) =>
  Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as T;

function triggerBody(t: NonNullable<FormValues['trigger']>): Trigger {
  const c = t.conditions ?? {};
  const conditions = present({
    stage: c.stage,
    source: c.source?.trim(),
    tags: list(t.tagsText).length ? list(t.tagsText) : undefined,
    assignedUserId: c.assignedUserId,
  });
  const base = Object.keys(conditions).length ? { conditions } : {};
  switch (t.type) {
    case 'personCreated': {
      const sources = list(t.sourcesText);
      const eventTypes = list(t.eventTypesText);
      return {
        type: t.type,
        ...(sources.length ? { sources } : {}),
        ...(eventTypes.length ? { eventTypes } : {}),
        ...base,
      };
    }
    case 'tagAdded':
      return { type: t.type, tag: t.tag?.trim(), ...base };
    case 'stageChanged':
      return { type: t.type, stage: t.stage, ...base };
    case 'dealStageChanged':
      return { type: t.type, pipelineId: t.pipelineId, stageId: t.stageId, ...base };
    case 'dateReached':
      return { type: t.type, field: 'created', offsetDays: Number(t.offsetDays ?? 0), ...base };
    default:
      return { type: t.type ?? '', days: Number(t.days ?? 0), ...base };
  }
}

function stepBody(s: StepValues): Action {
  switch (s.type) {
    case 'wait':
      return { type: 'wait', seconds: Math.round(Number(s.amount ?? 0) * Number(s.unit ?? 86400)) };
    case 'addTag':
    case 'removeTag':
      return { type: s.type, tag: s.tag?.trim() };
    case 'changeStage':
      return { type: s.type, stage: s.stage };
    case 'assign': {
      const key = s.assignTo === 'group' ? 'groupId' : s.assignTo === 'pond' ? 'pondId' : 'userId';
      return { type: s.type, [key]: s[key] };
    }
    case 'createTask':
      return present({
        type: s.type,
        name: s.name?.trim(),
        taskType: s.taskType,
        dueInDays: s.dueInDays == null ? undefined : Number(s.dueInDays),
      });
    case 'sendEmail':
      return { type: s.type, templateId: s.templateId };
    case 'startActionPlan':
      return { type: s.type, actionPlanId: s.actionPlanId };
    case 'notify':
      return present({ type: s.type, message: s.message?.trim(), userId: s.userId });
    default:
      return { type: s.type, url: s.url?.trim() };
  }
}

/** The API's body from the builder's values. */
export function toBody(values: FormValues) {
  return {
    name: values.name?.trim(),
    status: values.status ?? 'Active',
    trigger: triggerBody(values.trigger ?? { type: '' }),
    actions: (values.steps ?? []).map(stepBody),
  };
}

/** The builder's values from an automation (a wait shown in the largest whole unit). */
export function toForm(a: Automation): FormValues {
  const trigger: Trigger = a.trigger;
  return {
    name: a.name,
    status: a.status,
    trigger: {
      ...trigger,
      sourcesText: (trigger.sources ?? []).join(', '),
      eventTypesText: (trigger.eventTypes ?? []).join(', '),
      tagsText: (trigger.conditions?.tags ?? []).join(', '),
    },
    steps: a.actions.map((action) => {
      if (action.type === 'wait') {
        const seconds = action.seconds ?? 0;
        const unit = [86400, 3600, 60].find((u) => seconds % u === 0) ?? 60;
        return { ...action, amount: seconds / unit, unit: String(unit) };
      }
      if (action.type === 'assign')
        return {
          ...action,
          assignTo: action.groupId ? 'group' : action.pondId ? 'pond' : 'user',
        };
      return action;
    }),
  };
}

/** Names the builder's sentence uses for ids (users, templates…); an unknown id stays a number. */
export type Lookup = (kind: string, id: number | undefined) => string;

export function waitText(seconds: number): string {
  for (const [unit, name] of [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ] as const)
    if (seconds % unit === 0) {
      const n = seconds / unit;
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  return `${seconds} seconds`;
}

export function triggerText(t: Trigger, name: Lookup): string {
  const when = {
    personCreated: `a person ${t.sources?.length ? `comes in from ${t.sources.join(' or ')}` : 'is created'}${
      t.eventTypes?.length ? ` by the lead event ${t.eventTypes.join(' or ')}` : ''
    }`,
    tagAdded: `the tag “${t.tag}” is added`,
    stageChanged: `the stage changes to ${t.stage}`,
    dealStageChanged: `a deal moves to ${name('dealStage', t.stageId)}`,
    dateReached: `${t.offsetDays} days have passed since the person was created`,
    noContact: `nobody has been in touch for ${t.days} days`,
  }[t.type];
  const c = t.conditions ?? {};
  const also = [
    c.stage ? `the stage is ${c.stage}` : '',
    c.source ? `the source is ${c.source}` : '',
    c.tags?.length ? `the person has the tags ${c.tags.join(', ')}` : '',
    c.assignedUserId ? `the person is assigned to ${name('user', c.assignedUserId)}` : '',
  ].filter(Boolean);
  return `When ${when ?? t.type}${also.length ? `, and ${also.join(' and ')}` : ''}`;
}

export function actionText(a: Action, name: Lookup): string {
  switch (a.type) {
    case 'wait':
      return `wait ${waitText(a.seconds ?? 0)}`;
    case 'addTag':
      return `add the tag “${a.tag}”`;
    case 'removeTag':
      return `remove the tag “${a.tag}”`;
    case 'changeStage':
      return `move to the stage ${a.stage}`;
    case 'assign':
      return a.groupId
        ? `assign to the group ${name('group', a.groupId)}`
        : a.pondId
          ? `put in the pond ${name('pond', a.pondId)}`
          : `assign to ${name('user', a.userId)}`;
    case 'createTask':
      return `create a task “${a.name}”${a.dueInDays ? ` due in ${a.dueInDays} days` : ''}`;
    case 'sendEmail':
      return `send the template “${name('template', a.templateId)}”`;
    case 'startActionPlan':
      return `start the action plan ${name('actionPlan', a.actionPlanId)}`;
    case 'notify':
      return `notify ${a.userId ? name('user', a.userId) : 'the assigned agent'}: “${a.message}”`;
    default:
      return `call the webhook ${a.url}`;
  }
}

/** "When …: step, then step, then step." */
export function sentence(a: { trigger: Trigger; actions: Action[] }, name: Lookup): string {
  return `${triggerText(a.trigger, name)}: ${a.actions.map((x) => actionText(x, name)).join(', then ')}.`;
}
