import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  Stage,
  StageCreateBody,
  StageDeleteBody,
  StageDeleteQuery,
  StageListQuery,
  StageUpdateBody,
} from './stages.schemas.js';
import { findStage, presentStage, type StageRow, stagesList } from './stages.repo.js';
import { createStage, deleteStage, updateStage } from './stages.service.js';

const tags = ['stages'];

/** `/v1/stages`: the account's person stages. Anyone reads; Owner and Admin change them. */
export const stagesRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db, dialect } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const respond = async (request: FastifyRequest, id: number) =>
    presentStage((await findStage(db, request.auth, id))!);

  app.get(
    '/v1/stages',
    {
      schema: {
        tags,
        summary: 'List stages (by orderWeight unless sort says otherwise)',
        querystring: StageListQuery,
        response: responses({ 200: ListEnvelope('stages', Stage) }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await paginate<StageRow>(request, {
        collection: 'stages',
        query: stagesList(db, request.auth, q),
        page: readPage(q),
        sort: readSort(
          q.sort ?? 'orderWeight',
          { orderWeight: 'stages.order_weight', name: 'stages.name' },
          'stages.id',
        ),
        idExpression: 'stages.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, stages: page.rows.map(presentStage) };
    },
  );

  app.get(
    '/v1/stages/:id',
    {
      schema: {
        tags,
        summary: 'Get a stage',
        params: IdParams,
        response: responses({ 200: Stage }),
      },
    },
    async (request) => {
      const row = await findStage(db, request.auth, request.params.id);
      if (!row) throw notFound(`Stage ${request.params.id}`);
      return presentStage(row);
    },
  );

  app.post(
    '/v1/stages',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Create a stage (Owner, Admin); the weights of all stages are recalculated',
        body: StageCreateBody,
        response: responses({ 201: Stage }),
      },
    },
    async (request, reply) => {
      const id = await createStage(db, dialect, request.auth.accountId, request.body, now());
      return reply.code(201).send(await respond(request, id));
    },
  );

  app.put(
    '/v1/stages/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary:
          'Update a stage (Owner, Admin); a protected stage keeps its name; a new orderWeight renumbers the others',
        params: IdParams,
        body: StageUpdateBody,
        response: responses({ 200: Stage }),
      },
    },
    async (request) => {
      await updateStage(
        db,
        dialect,
        request.auth.accountId,
        request.params.id,
        request.body ?? {},
        now(),
      );
      return respond(request, request.params.id);
    },
  );

  app.delete(
    '/v1/stages/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Delete a stage (Owner, Admin); its people move to assignStageId (query or body)',
        params: IdParams,
        querystring: StageDeleteQuery,
        body: StageDeleteBody,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      const fromQuery = request.query.assignStageId;
      const fromBody = request.body?.assignStageId;
      if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
        throw badRequest('assignStageId differs between the query and the body; send it once');
      }
      await deleteStage(
        db,
        dialect,
        request.auth.accountId,
        request.params.id,
        fromQuery ?? fromBody,
        now(),
      );
      return reply.code(204).send(null);
    },
  );
};
