import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { presentTask } from './tasks.presenter.js';
import { tasks } from './tasks.repo.js';
import { addTask, changeTask, listTasks } from './tasks.answers.js';
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
    async (request) => listTasks(ctx, request.auth, request, request.query),
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
    async (request, reply) => reply.code(201).send(await addTask(ctx, request.auth, request.body)),
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
    async (request) => changeTask(ctx, request.auth, request.params.id, request.body),
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
