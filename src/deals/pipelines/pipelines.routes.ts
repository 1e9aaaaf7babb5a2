import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  Pipeline,
  PipelineCreateBody,
  PipelineListQuery,
  PipelineStageParams,
  PipelineUpdateBody,
} from './pipelines.schemas.js';
import {
  findPipeline,
  pipelinesList,
  presentPipeline,
  type PipelineRow,
  stagesOf,
} from './pipelines.repo.js';
import {
  createPipeline,
  deletePipeline,
  deletePipelineStage,
  updatePipeline,
} from './pipelines.service.js';

const tags = ['pipelines'];

/** `/v1/pipelines`: deal pipelines with their stages. Everyone reads; only the Owner changes them. */
export const pipelinesRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db, dialect } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const load = async (accountId: number, id: number) => {
    const row = await findPipeline(db, accountId, id);
    if (!row) throw notFound(`Pipeline ${id}`);
    return presentPipeline(row, await stagesOf(db, accountId, [id]));
  };

  app.get(
    '/v1/pipelines',
    {
      schema: {
        tags,
        summary: 'List pipelines with their stages (by orderWeight unless sort says otherwise)',
        querystring: PipelineListQuery,
        response: responses({ 200: ListEnvelope('pipelines', Pipeline) }),
      },
    },
    async (request) => {
      const q = request.query;
      const accountId = request.auth.accountId;
      const page = await paginate<PipelineRow>(request, {
        collection: 'pipelines',
        query: pipelinesList(db, accountId, q),
        page: readPage(q),
        sort: readSort(
          q.sort ?? 'orderWeight',
          { orderWeight: 'pipelines.order_weight', name: 'pipelines.name' },
          'pipelines.id',
        ),
        idExpression: 'pipelines.id',
        publicUrl: ctx.config.publicUrl,
      });
      const stages = await stagesOf(
        db,
        accountId,
        page.rows.map((r) => r.id),
      );
      return {
        _metadata: page.metadata,
        pipelines: page.rows.map((row) => presentPipeline(row, stages)),
      };
    },
  );

  app.get(
    '/v1/pipelines/:id',
    {
      schema: {
        tags,
        summary: 'Get a pipeline with its stages',
        params: IdParams,
        response: responses({ 200: Pipeline }),
      },
    },
    async (request) => load(request.auth.accountId, request.params.id),
  );

  app.post(
    '/v1/pipelines',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary: 'Add a pipeline and its stages (Owner only)',
        body: PipelineCreateBody,
        response: responses({ 201: Pipeline }),
      },
    },
    async (request, reply) => {
      const accountId = request.auth.accountId;
      const id = await createPipeline(db, dialect, accountId, request.body, now());
      return reply.code(201).send(await load(accountId, id));
    },
  );

  app.put(
    '/v1/pipelines/:id',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary:
          'Update a pipeline (Owner only): stage objects with id are updated, without id created; stages left out stay as they are',
        params: IdParams,
        body: PipelineUpdateBody,
        response: responses({ 200: Pipeline }),
      },
    },
    async (request) => {
      const accountId = request.auth.accountId;
      await updatePipeline(db, dialect, accountId, request.params.id, request.body ?? {}, now());
      return load(accountId, request.params.id);
    },
  );

  app.delete(
    '/v1/pipelines/:id',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary: 'Delete a pipeline and its stages (Owner only; refused while it has live deals)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await deletePipeline(db, dialect, request.auth.accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/v1/pipelines/:id/stages/:stageId',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary: 'Delete one stage of a pipeline (Owner only; refused while it has live deals)',
        params: PipelineStageParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await deletePipelineStage(
        db,
        dialect,
        request.auth.accountId,
        request.params.id,
        request.params.stageId,
      );
      return reply.code(204).send(null);
    },
  );
};
