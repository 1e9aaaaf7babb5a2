import { Type } from '@sinclair/typebox';
import { Note, NoteCreateBody } from '../../timeline/notes/notes.schemas.js';
import { Call, CallBody } from '../../timeline/calls/calls.schemas.js';
import { Task, TaskCreateBody, TaskListQuery } from '../../timeline/tasks/tasks.schemas.js';
import { listRequest } from '../../platform/http/pagination.js';
import { addNote as storeNote } from '../../timeline/notes/notes.answers.js';
import { logCall as storeCall } from '../../timeline/calls/calls.answers.js';
import { addTask, changeTask, listTasks as tasksPage } from '../../timeline/tasks/tasks.answers.js';
import {
  adding,
  defineTool,
  objectOf,
  pageArgs,
  pageFields,
  pageOf,
  pageQuery,
  PersonId,
  reading,
} from './tool.js';

interface TaskOut {
  id: number;
  name: string;
  personId: number;
  dueDate: string | null;
  isCompleted: boolean;
}

const describeTask = (t: TaskOut) =>
  `"${t.name}" (task ${t.id}, person ${t.personId}${t.dueDate ? `, due ${t.dueDate}` : ''})`;

export const addNote = defineTool({
  name: 'add_note',
  title: 'Add a note',
  description: "Add a note to a person's timeline.",
  input: Type.Pick(NoteCreateBody, ['personId', 'body', 'subject'], {
    additionalProperties: false,
  }),
  output: objectOf({ note: Note }),
  annotations: adding,
  route: { method: 'POST', url: '/v1/notes' },
  async run({ ctx, auth }, args) {
    const note = await storeNote(ctx, auth, args);
    return { text: `Added note ${note.id} to person ${args.personId}`, structured: { note } };
  },
});

export const logCall = defineTool({
  name: 'log_call',
  title: 'Log a call',
  description:
    'Record a phone call with a person (outcome, note, duration in seconds); an outgoing call marks them contacted.',
  input: Type.Composite(
    [
      objectOf({ personId: PersonId }),
      Type.Pick(CallBody, ['outcome', 'note', 'duration', 'isIncoming', 'phone']),
    ],
    { additionalProperties: false },
  ),
  output: objectOf({ call: Call }),
  annotations: adding,
  route: { method: 'POST', url: '/v1/calls' },
  async run({ ctx, auth }, args) {
    const call = await storeCall(ctx, auth, args, '');
    return { text: `Logged call ${call.id} with person ${args.personId}`, structured: { call } };
  },
});

export const createTask = defineTool({
  name: 'create_task',
  title: 'Create a task',
  description: 'Create a task on a person, assigned to you (dueDate YYYY-MM-DD).',
  input: Type.Pick(TaskCreateBody, ['personId', 'name', 'dueDate', 'type'], {
    additionalProperties: false,
  }),
  output: objectOf({ task: Task }),
  annotations: adding,
  route: { method: 'POST', url: '/v1/tasks' },
  async run({ ctx, auth }, args) {
    const task = await addTask(ctx, auth, args);
    return { text: `Created ${describeTask(task)}`, structured: { task } };
  },
});

export const listTasks = defineTool({
  name: 'list_tasks',
  title: 'List tasks',
  description:
    'Open tasks, by default yours: due today, overdue or upcoming, or of one person. Completed ones with includeCompleted.',
  input: objectOf({
    due: Type.Optional(TaskListQuery.properties.due),
    mine: Type.Optional(Type.Boolean({ description: 'Only tasks assigned to you (default true)' })),
    personId: Type.Optional(PersonId),
    includeCompleted: Type.Optional(Type.Boolean({ description: 'Also completed tasks' })),
    ...pageArgs,
  }),
  output: objectOf({ tasks: Type.Array(Task), ...pageFields }),
  annotations: reading,
  route: { method: 'GET', url: '/v1/tasks' },
  async run({ ctx, auth }, args) {
    const query = {
      due: args.due,
      personId: args.personId,
      assignedUserId: args.mine === false ? undefined : auth.userId,
      isCompleted: args.includeCompleted ? undefined : false,
      ...pageQuery(args),
    };
    const page = await tasksPage(ctx, auth, listRequest('/v1/tasks', query), query);
    const shown = page.tasks.map(describeTask).join('; ');
    return {
      text: `${page._metadata.total} tasks${shown ? `: ${shown}` : ''}`,
      structured: { tasks: page.tasks, ...pageOf(page._metadata) },
    };
  },
});

export const completeTask = defineTool({
  name: 'complete_task',
  title: 'Complete a task',
  description: 'Mark a task done.',
  input: objectOf({ taskId: Type.Integer({ minimum: 1, description: 'See list_tasks' }) }),
  output: objectOf({ task: Task }),
  annotations: { ...adding, idempotentHint: true },
  route: { method: 'PUT', url: '/v1/tasks/:id' },
  async run({ ctx, auth }, { taskId }) {
    const task = await changeTask(ctx, auth, taskId, { isCompleted: true });
    return { text: `Completed ${describeTask(task)}`, structured: { task } };
  },
});
