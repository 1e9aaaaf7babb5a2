import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { presentCall } from './calls.presenter.js';
import { calls, callsList, changedCallValues, newCallValues } from './calls.repo.js';
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
    async (request) => {
      const query = callsList(db, request.auth, request.query);
      const page = await calls.page(request, ctx, 'calls', query, request.query);
      return { _metadata: page.metadata, calls: page.rows.map(presentCall) };
    },
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
    async (request, reply) => {
      const auth = request.auth;
      const system = request.system?.name ?? '';
      const id = await calls.create(
        ctx,
        auth,
        (trx) => newCallValues(trx, auth, request.body, system),
        { touchesPerson: true, contactsPerson: true },
      );
      return reply.code(201).send(presentCall(await calls.get(db, auth, id)));
    },
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
