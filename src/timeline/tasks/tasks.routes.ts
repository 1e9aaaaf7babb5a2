import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import { presentTask } from './tasks.presenter.js';
import { changedTaskValues, newTaskValues, tasks, tasksList } from './tasks.repo.js';
import { Task, TaskCreateBody, TaskListQuery, TaskUpdateBody } from './tasks.schemas.js';

const tags = ['tasks'];

export const tasksRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/tasks',
    {
      schema: {
        tags,
        summary: 'Tasks (filters personId, assignedUserId, isCompleted, type, due, q)',
        querystring: TaskListQuery,
        response: responses({ 200: ListEnvelope('tasks', Task) }),
      },
    },
    async (request) => {
      const today = isoSeconds(ctx.clock.now()).slice(0, 10);
      const query = tasksList(db, request.auth, request.query, today);
      const page = await tasks.page(request, ctx, 'tasks', query, request.query);
      return { _metadata: page.metadata, tasks: page.rows.map(presentTask) };
    },
  );

  app.get(
    '/v1/tasks/:id',
    {
      schema: { tags, summary: 'A task', params: IdParams, response: responses({ 200: Task }) },
    },
    async (request) => presentTask(await tasks.get(db, request.auth, request.params.id)),
  );

  app.post(
    '/v1/tasks',
    {
      schema: {
        tags,
        summary:
          'Create a task on a person (assigned to the caller unless assignedUserId says otherwise)',
        body: TaskCreateBody,
        response: responses({ 201: Task }),
      },
    },
    async (request, reply) => {
      const auth = request.auth;
      const id = await tasks.create(ctx, auth, (trx, at) =>
        newTaskValues(trx, auth, request.body, at),
      );
      return reply.code(201).send(presentTask(await tasks.get(db, auth, id)));
    },
  );

  app.put(
    '/v1/tasks/:id',
    {
      schema: {
        tags,
        summary: 'Change a task: only the fields sent change',
        params: IdParams,
        body: TaskUpdateBody,
        response: responses({ 200: Task }),
      },
    },
    async (request) => {
      const { auth, body } = request;
      await tasks.update(ctx, auth, request.params.id, (trx, row, at) =>
        changedTaskValues(trx, auth, row, body, at),
      );
      return presentTask(await tasks.get(db, auth, request.params.id));
    },
  );

  app.delete(
    '/v1/tasks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a task',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await tasks.remove(ctx, request.auth, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
