import type { Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../db/database.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import type { TasksTable } from './tasks.tables.js';

export type TaskRow = Selectable<TasksTable>;

export const TASK_TYPES = ['Follow Up', 'Call', 'Email', 'Text', 'Appointment', 'Showing', 'Closing', 'Open House', 'Thank You'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

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

/**
 * Inserts a task and records `tasksCreated` in the same transaction; returns the new id.
 * The caller has checked that the person belongs to `accountId` (and that the caller may see them).
 * Shared with action plans: keep this signature stable.
 */
export async function insertTask(trx: Trx, accountId: number, values: NewTask): Promise<number> {
  const now = values.now ?? Date.now();
  const at = isoSeconds(now);
  const dueDate = values.dueDate ?? (values.dueDateTime ? values.dueDateTime.slice(0, 10) : null);
  const row = await trx
    .insertInto('tasks')
    .values({
      account_id: accountId,
      person_id: values.personId,
      name: values.name,
      type: values.type,
      assigned_user_id: values.assignedUserId ?? null,
      due_date: dueDate,
      due_date_time: values.dueDateTime ?? null,
      is_completed: values.isCompleted ? 1 : 0,
      completed_at: values.isCompleted ? at : null,
      created_by_id: values.createdById ?? null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await emit(trx, accountId, 'tasksCreated', [row.id], undefined, now);
  return row.id;
}

export function tasksQuery(db: DbOrTrx, accountId: number) {
  return db.selectFrom('tasks').selectAll('tasks').where('tasks.account_id', '=', accountId);
}

export async function findTask(db: DbOrTrx, accountId: number, id: number): Promise<TaskRow | undefined> {
  return tasksQuery(db, accountId).where('tasks.id', '=', id).executeTakeFirst();
}
