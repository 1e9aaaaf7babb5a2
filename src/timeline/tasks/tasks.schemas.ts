import { Type } from '@sinclair/typebox';
import { Bool, Nullable, SystemField } from '../../platform/http/schemas.js';
import { allOptional, timelineListQuery } from '../timeline.shared.js';

export const TASK_TYPES = [
  'Follow Up',
  'Call',
  'Email',
  'Text',
  'Appointment',
  'Showing',
  'Closing',
  'Open House',
  'Thank You',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

const TaskTypeSchema = Type.Union(TASK_TYPES.map((t) => Type.Literal(t)));

export const Task = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  personId: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  assignedUserId: Nullable(Type.Integer()),
  dueDate: Nullable(Type.String()),
  dueDateTime: Nullable(Type.String()),
  isCompleted: Type.Boolean(),
  completed: Nullable(Type.String()),
  createdById: Nullable(Type.Integer()),
  remindSecondsBefore: Nullable(Type.Integer()),
});
const fields = {
  personId: Type.Integer({ minimum: 1 }),
  name: Type.String({ minLength: 1, maxLength: 500 }),
  type: TaskTypeSchema,
  assignedUserId: Nullable(Type.Integer({ minimum: 1 })),
  assignedTo: Nullable(
    Type.String({ maxLength: 300, description: "The assigned user's name (assignedUserId wins)" }),
  ),
  remindSecondsBefore: Nullable(
    Type.Integer({ minimum: 0, maximum: 31_536_000, description: 'Reminder this long before due' }),
  ),
  dueDate: Nullable(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' })),
  dueDateTime: Nullable(Type.String({ maxLength: 40, description: 'ISO 8601' })),
  isCompleted: Bool(),
};
export const TaskCreateBody = Type.Object(
  { ...allOptional(fields), personId: fields.personId, name: fields.name, ...SystemField },
  { additionalProperties: false },
);
export const TaskUpdateBody = Type.Object(
  { ...allOptional(fields), ...SystemField },
  { additionalProperties: false },
);
export const TaskListQuery = Type.Object(
  {
    ...timelineListQuery,
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Search text: tasks whose name contains it (case-insensitive)',
      }),
    ),
    assignedUserId: Type.Optional(Type.Integer({ minimum: 1 })),
    isCompleted: Type.Optional(Bool()),
    type: Type.Optional(TaskTypeSchema),
    due: Type.Optional(
      Type.Union([Type.Literal('today'), Type.Literal('overdue'), Type.Literal('upcoming')], {
        description:
          'by dueDate against today (UTC): today; overdue (before today, not completed); upcoming (after today)',
      }),
    ),
  },
  { additionalProperties: false },
);
