import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { presentCall } from './calls.presenter.js';
import { calls, changedCallValues } from './calls.repo.js';
import { listCalls, logCall } from './calls.answers.js';
import { Call, CallBody, CallListQuery } from './calls.schemas.js';

const tags = ['calls'];

export const callsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/calls',
    {
      schema: {
        tags,
        summary: 'Logged calls (filters personId — 0 for unknown callers —, phone, system, userId)',
        querystring: CallListQuery,
        response: responses({ 200: ListEnvelope('calls', Call) }),
      },
    },
    async (request) => listCalls(ctx, request.auth, request, request.query),
  );

  app.get(
    '/v1/calls/:id',
    {
      schema: {
        tags,
        summary: 'A logged call',
        params: IdParams,
        response: responses({ 200: Call }),
      },
    },
    async (request) => presentCall(await calls.get(db, request.auth, request.params.id)),
  );

  app.post(
    '/v1/calls',
    {
      schema: {
        tags,
        summary: 'Log a call (records it; places no call)',
        body: CallBody,
        response: responses({ 201: Call }),
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await logCall(ctx, request.auth, request.body, request.system?.name ?? '')),
  );

  app.put(
    '/v1/calls/:id',
    {
      schema: {
        tags,
        summary: 'Change a logged call: only the fields sent change',
        params: IdParams,
        body: CallBody,
        response: responses({ 200: Call }),
      },
    },
    async (request) => {
      const { auth, body } = request;
      await calls.update(ctx, auth, request.params.id, (trx, row) =>
        changedCallValues(trx, auth, row, body),
      );
      return presentCall(await calls.get(db, auth, request.params.id));
    },
  );

  app.delete(
    '/v1/calls/:id',
    {
      schema: {
        tags,
        summary: 'Delete a logged call',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await calls.remove(ctx, request.auth, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
