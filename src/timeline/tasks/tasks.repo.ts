import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import { containsText } from '../../platform/db/text-match.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { isoSeconds, parseDate } from '../../platform/time.js';
import { personRecords } from '../personRecords.js';
import { isoField, requireAccountUser, requirePerson } from '../timeline.shared.js';
import { userInAccount } from '../../contacts/people/people.input.js';
import type { TaskCreateBody, TaskListQuery, TaskType, TaskUpdateBody } from './tasks.schemas.js';
import type { TasksTable } from './tasks.tables.js';

export type TaskRow = Selectable<TasksTable>;

export { TASK_TYPES, type TaskType } from './tasks.schemas.js';

export interface NewTask {
  personId: number;
  name: string;
  type: TaskType;
  assignedUserId?: number | null;
  /** YYYY-MM-DD */
  dueDate?: string | null;
  /** ISO 8601 UTC; when given without dueDate, dueDate is its UTC date. */
  dueDateTime?: string | null;
  isCompleted?: boolean;
  createdById?: number | null;
  /** Time of the change (ms); defaults to now. Pass ctx.clock.now() so tests can move time. */
  now?: number;
}

/** The stored columns of a new task (its dueDate defaults to dueDateTime's UTC date). */
export function taskColumns(values: Omit<NewTask, 'now'>, at: string) {
  return {
    person_id: values.personId,
    name: values.name,
    type: values.type,
    assigned_user_id: values.assignedUserId ?? null,
    due_date: values.dueDate ?? (values.dueDateTime ? values.dueDateTime.slice(0, 10) : null),
    due_date_time: values.dueDateTime ?? null,
    is_completed: values.isCompleted ? 1 : 0,
    completed_at: values.isCompleted ? at : null,
    created_by_id: values.createdById ?? null,
  };
}

/**
 * Inserts a task and records `tasksCreated` in the same transaction; returns the new id.
 * The caller has checked that the person belongs to `accountId` (and that the caller may see them).
 * Shared with action plans: keep this signature stable.
 */
export async function insertTask(trx: Trx, accountId: number, values: NewTask): Promise<number> {
  const now = values.now ?? Date.now();
  const at = isoSeconds(now);
  const row = await trx
    .insertInto('tasks')
    .values({ ...taskColumns(values, at), account_id: accountId, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await emit(trx, accountId, 'tasksCreated', [row.id], undefined, now);
  return row.id;
}

export const tasks = personRecords({
  table: 'tasks',
  label: 'Task',
  events: { created: 'tasksCreated', updated: 'tasksUpdated', deleted: 'tasksDeleted' },
  sorts: { dueDate: "coalesce(tasks.due_date, '')", name: 'tasks.name' },
});

/** The caller's tasks with the list's filters; `today` is the UTC date `due` compares with. */
export function tasksList(
  db: DbOrTrx,
  auth: AuthUser,
  q: Static<typeof TaskListQuery>,
  today: string,
) {
  let query = tasks.visible(db, auth);
  if (q.personId !== undefined) query = query.where('tasks.person_id', '=', q.personId);
  if (q.assignedUserId !== undefined)
    query = query.where('tasks.assigned_user_id', '=', q.assignedUserId);
  if (q.isCompleted !== undefined)
    query = query.where('tasks.is_completed', '=', toBool(q.isCompleted) ? 1 : 0);
  if (q.type) query = query.where('tasks.type', '=', q.type);
  if (q.q?.trim()) query = query.where(containsText('tasks.name', q.q.trim()));
  if (q.due === 'today') query = query.where('tasks.due_date', '=', today);
  if (q.due === 'upcoming') query = query.where('tasks.due_date', '>', today);
  if (q.due === 'overdue')
    query = query.where('tasks.due_date', '<', today).where('tasks.is_completed', '=', 0);
  return query;
}

function validDate(value: string): string {
  if (parseDate(value) !== value) throw badRequest(`'dueDate' ${value} is not a calendar date`);
  return value;
}
const validDateTime = (value: string) => isoField(value, 'dueDateTime');

/** A task from the API: on a person the caller may see, assigned to the caller by default. */
export async function newTaskValues(
  trx: Trx,
  auth: AuthUser,
  b: Static<typeof TaskCreateBody>,
  at: string,
) {
  const personId = await requirePerson(trx, auth, b.personId);
  const named = await assignedByName(trx, auth, b);
  const assignedUserId = named !== undefined ? named : auth.userId;
  if (assignedUserId !== null)
    await requireAccountUser(trx, auth.accountId, assignedUserId, 'assignedUserId');
  const values = {
    personId,
    name: b.name,
    type: b.type ?? 'Follow Up',
    assignedUserId,
    dueDate: b.dueDate ? validDate(b.dueDate) : null,
    dueDateTime: b.dueDateTime ? validDateTime(b.dueDateTime) : null,
    isCompleted: toBool(b.isCompleted),
    createdById: auth.userId,
  };
  return { ...taskColumns(values, at), remind_seconds_before: b.remindSecondsBefore ?? null };
}

/** assignedUserId, else the user named by `assignedTo` (as real clients send it); undefined if neither. */
async function assignedByName(
  trx: Trx,
  auth: AuthUser,
  b: { assignedUserId?: number | null; assignedTo?: string | null },
): Promise<number | null | undefined> {
  if (b.assignedUserId !== undefined) return b.assignedUserId;
  if (b.assignedTo === undefined) return undefined;
  return (
    (await userInAccount(trx, auth.accountId, { name: b.assignedTo }, 'assignedTo'))?.id ?? null
  );
}

/** Only the fields sent change; a task keeps the time it was first completed. */
export async function changedTaskValues(
  trx: Trx,
  auth: AuthUser,
  row: TaskRow,
  b: Static<typeof TaskUpdateBody>,
  at: string,
) {
  if (b.personId !== undefined && b.personId !== row.person_id)
    await requirePerson(trx, auth, b.personId);
  const assigned = await assignedByName(trx, auth, b);
  if (assigned) await requireAccountUser(trx, auth.accountId, assigned, 'assignedUserId');
  const dueDateTime =
    b.dueDateTime === undefined ? row.due_date_time : b.dueDateTime && validDateTime(b.dueDateTime);
  const dueDate =
    b.dueDate !== undefined
      ? b.dueDate && validDate(b.dueDate)
      : b.dueDateTime
        ? dueDateTime!.slice(0, 10)
        : row.due_date;
  const isCompleted =
    b.isCompleted === undefined ? row.is_completed : toBool(b.isCompleted) ? 1 : 0;
  return {
    person_id: b.personId ?? row.person_id,
    name: b.name ?? row.name,
    type: b.type ?? row.type,
    assigned_user_id: assigned === undefined ? row.assigned_user_id : assigned,
    remind_seconds_before:
      b.remindSecondsBefore === undefined ? row.remind_seconds_before : b.remindSecondsBefore,
    due_date: dueDate,
    due_date_time: dueDateTime,
    is_completed: isCompleted,
    completed_at: isCompleted ? (row.completed_at ?? at) : null,
  };
}
