import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { AuthUser } from '../http/auth.js';
import type { DbOrTrx } from '../db/database.js';
import { badRequest } from '../http/errors.js';
import { Bool, IdParams, Nullable, responses, SystemField, toBool } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage } from '../http/pagination.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import { allOptional, missing, onlyVisiblePeople, requireAccountUser, requirePerson, timelineListQuery, timelineSort } from '../timeline/timeline.shared.js';
import { insertTask, TASK_TYPES, type TaskRow } from './tasks.repo.js';

const tags = ['tasks'];
const TaskTypeSchema = Type.Union(TASK_TYPES.map((t) => Type.Literal(t)));

const Task = Type.Object({
  id: Type.Integer(), created: Type.String(), updated: Type.String(), personId: Type.Integer(), name: Type.String(), type: Type.String(),
  assignedUserId: Nullable(Type.Integer()), dueDate: Nullable(Type.String()), dueDateTime: Nullable(Type.String()),
  isCompleted: Type.Boolean(), completed: Nullable(Type.String()), createdById: Nullable(Type.Integer()),
});
const fields = {
  personId: Type.Integer({ minimum: 1 }),
  name: Type.String({ minLength: 1, maxLength: 500 }),
  type: TaskTypeSchema,
  assignedUserId: Nullable(Type.Integer({ minimum: 1 })),
  dueDate: Nullable(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' })),
  dueDateTime: Nullable(Type.String({ maxLength: 40, description: 'ISO 8601' })),
  isCompleted: Bool(),
};
const CreateBody = Type.Object({ ...allOptional(fields), personId: fields.personId, name: fields.name, ...SystemField }, { additionalProperties: false });
const UpdateBody = Type.Object({ ...allOptional(fields), ...SystemField }, { additionalProperties: false });
const ListQuery = Type.Object({
  ...timelineListQuery,
  assignedUserId: Type.Optional(Type.Integer({ minimum: 1 })),
  isCompleted: Type.Optional(Bool()),
  type: Type.Optional(TaskTypeSchema),
  due: Type.Optional(Type.Union([Type.Literal('today'), Type.Literal('overdue'), Type.Literal('upcoming')], {
    description: 'by dueDate against today (UTC): today; overdue (before today, not completed); upcoming (after today)',
  })),
}, { additionalProperties: false });

export function presentTask(row: TaskRow) {
  return {
    id: row.id, created: row.created_at, updated: row.updated_at, personId: row.person_id, name: row.name, type: row.type,
    assignedUserId: row.assigned_user_id, dueDate: row.due_date, dueDateTime: row.due_date_time, isCompleted: row.is_completed === 1,
    completed: row.completed_at, createdById: row.created_by_id,
  };
}

function validDate(value: string): string {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) throw badRequest(`'dueDate' ${value} is not a calendar date`);
  return value;
}
function validDateTime(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw badRequest("'dueDateTime' must be an ISO 8601 timestamp");
  return isoSeconds(ms);
}

function visibleTasks(db: DbOrTrx, auth: AuthUser) {
  return onlyVisiblePeople(db.selectFrom('tasks').selectAll('tasks').where('tasks.account_id', '=', auth.accountId), db, auth, 'tasks.person_id');
}

export const tasksRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config } = ctx;
  const find = (dbx: DbOrTrx, auth: AuthUser, id: number) => visibleTasks(dbx, auth).where('tasks.id', '=', id).executeTakeFirst();

  app.get('/v1/tasks', {
    schema: { tags, summary: 'Tasks (filters personId, assignedUserId, isCompleted, type, due)', querystring: ListQuery, response: responses({ 200: ListEnvelope('tasks', Task) }) },
  }, async (request) => {
    const q = request.query;
    let query = visibleTasks(db, request.auth);
    if (q.personId !== undefined) query = query.where('tasks.person_id', '=', q.personId);
    if (q.assignedUserId !== undefined) query = query.where('tasks.assigned_user_id', '=', q.assignedUserId);
    if (q.isCompleted !== undefined) query = query.where('tasks.is_completed', '=', toBool(q.isCompleted) ? 1 : 0);
    if (q.type) query = query.where('tasks.type', '=', q.type);
    if (q.due) {
      const today = isoSeconds(ctx.clock.now()).slice(0, 10);
      if (q.due === 'today') query = query.where('tasks.due_date', '=', today);
      if (q.due === 'upcoming') query = query.where('tasks.due_date', '>', today);
      if (q.due === 'overdue') query = query.where('tasks.due_date', '<', today).where('tasks.is_completed', '=', 0);
    }
    const page = await paginate<TaskRow>(request, {
      collection: 'tasks', query, page: readPage(q), sort: timelineSort(q.sort, 'tasks', { dueDate: "coalesce(tasks.due_date, '')", name: 'tasks.name' }),
      idExpression: 'tasks.id', publicUrl: config.publicUrl,
    });
    return { _metadata: page.metadata, tasks: page.rows.map(presentTask) };
  });

  app.get('/v1/tasks/:id', {
    schema: { tags, summary: 'A task', params: IdParams, response: responses({ 200: Task }) },
  }, async (request) => presentTask((await find(db, request.auth, request.params.id)) ?? missing('Task', request.params.id)));

  app.post('/v1/tasks', {
    schema: { tags, summary: 'Create a task on a person (assigned to the caller unless assignedUserId says otherwise)', body: CreateBody, response: responses({ 201: Task }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const b = request.body;
    const id = await db.transaction().execute(async (trx) => {
      const personId = await requirePerson(trx, auth, b.personId);
      const assignedUserId = b.assignedUserId === undefined ? auth.userId : b.assignedUserId;
      if (assignedUserId !== null) await requireAccountUser(trx, auth.accountId, assignedUserId, 'assignedUserId');
      return insertTask(trx, auth.accountId, {
        personId, name: b.name, type: b.type ?? 'Follow Up', assignedUserId,
        dueDate: b.dueDate ? validDate(b.dueDate) : null, dueDateTime: b.dueDateTime ? validDateTime(b.dueDateTime) : null,
        isCompleted: toBool(b.isCompleted), createdById: auth.userId, now: ctx.clock.now(),
      });
    });
    return reply.code(201).send(presentTask((await find(db, auth, id))!));
  });

  app.put('/v1/tasks/:id', {
    schema: { tags, summary: 'Change a task: only the fields sent change', params: IdParams, body: UpdateBody, response: responses({ 200: Task }) },
  }, async (request) => {
    const auth = request.auth;
    const b = request.body;
    const now = ctx.clock.now();
    const at = isoSeconds(now);
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Task', request.params.id);
      if (b.personId !== undefined && b.personId !== row.person_id) await requirePerson(trx, auth, b.personId);
      if (b.assignedUserId) await requireAccountUser(trx, auth.accountId, b.assignedUserId, 'assignedUserId');
      const dueDateTime = b.dueDateTime === undefined ? row.due_date_time : b.dueDateTime && validDateTime(b.dueDateTime);
      const dueDate = b.dueDate !== undefined ? b.dueDate && validDate(b.dueDate) : b.dueDateTime ? dueDateTime!.slice(0, 10) : row.due_date;
      const isCompleted = b.isCompleted === undefined ? row.is_completed : toBool(b.isCompleted) ? 1 : 0;
      await trx.updateTable('tasks').set({
        person_id: b.personId ?? row.person_id, name: b.name ?? row.name, type: b.type ?? row.type,
        assigned_user_id: b.assignedUserId === undefined ? row.assigned_user_id : b.assignedUserId,
        due_date: dueDate, due_date_time: dueDateTime, is_completed: isCompleted,
        completed_at: isCompleted ? (row.completed_at ?? at) : null, updated_at: at,
      }).where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'tasksUpdated', [row.id], undefined, now);
    });
    return presentTask((await find(db, auth, request.params.id))!);
  });

  app.delete('/v1/tasks/:id', {
    schema: { tags, summary: 'Delete a task', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    const auth = request.auth;
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Task', request.params.id);
      await trx.deleteFrom('tasks').where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'tasksDeleted', [row.id], undefined, ctx.clock.now());
    });
    return reply.code(204).send(null);
  });
};
