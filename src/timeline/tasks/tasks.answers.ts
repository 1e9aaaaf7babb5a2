import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import type { ListRequest } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import { presentTask } from './tasks.presenter.js';
import { changedTaskValues, newTaskValues, tasks, tasksList } from './tasks.repo.js';
import type { TaskCreateBody, TaskListQuery, TaskUpdateBody } from './tasks.schemas.js';

/** What POST /v1/tasks and the create_task tool do: the task stored, as GET shows it. */
export async function addTask(
  ctx: AppContext,
  auth: AuthUser,
  body: Static<typeof TaskCreateBody>,
) {
  const id = await tasks.create(ctx, auth, (trx, at) => newTaskValues(trx, auth, body, at));
  return presentTask(await tasks.get(ctx.db, auth, id));
}

/** PUT /v1/tasks/:id: only the fields sent change. */
export async function changeTask(
  ctx: AppContext,
  auth: AuthUser,
  id: number,
  body: Static<typeof TaskUpdateBody>,
) {
  await tasks.update(ctx, auth, id, (trx, row, at) => changedTaskValues(trx, auth, row, body, at));
  return presentTask(await tasks.get(ctx.db, auth, id));
}

/** A page of the tasks the caller may see (GET /v1/tasks); `due` counts from today's date. */
export async function listTasks(
  ctx: AppContext,
  auth: AuthUser,
  request: ListRequest,
  q: Static<typeof TaskListQuery>,
) {
  const today = isoSeconds(ctx.clock.now()).slice(0, 10);
  return tasks.listed(request, ctx, 'tasks', tasksList(ctx.db, auth, q, today), q, presentTask);
}
