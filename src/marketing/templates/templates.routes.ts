import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses, toBool } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  Template,
  TemplateCreateBody,
  TemplateGetQuery,
  TemplateListQuery,
  TemplateMergeBody,
  TemplateUpdateBody,
} from './templates.schemas.js';
import { readableTemplate, templatesList, type TemplateRow } from './templates.repo.js';
import { changeTemplate, createTemplate, removeTemplate } from './templates.service.js';
import { presentTemplate } from './templates.presenter.js';
import { type MergeData, renderMergeFields } from './merge-fields.js';
import { mergeDataFor } from './templates.merge.js';

const tags = ['templates'];

function mergedTemplate(row: TemplateRow, data: MergeData) {
  return presentTemplate(row, {
    subject: renderMergeFields(row.subject, data),
    body: renderMergeFields(row.body, data),
  });
}

/** Email templates with merge fields. Everyone may create their own; shared ones are seen by the whole account. */
export const templatesRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());

  app.get(
    '/v1/templates',
    {
      schema: {
        tags,
        summary: 'List email templates (yours and the shared ones; Owner and Admin see all)',
        querystring: TemplateListQuery,
        response: responses({ 200: ListEnvelope('templates', Template) }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await paginate<TemplateRow>(request, {
        collection: 'templates',
        query: templatesList(db, request.auth, 'email', q),
        page: readPage(q),
        sort: readSort(
          q.sort,
          { name: 'name', created: 'created_at', updated: 'updated_at' },
          'id',
        ),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, templates: page.rows.map((row) => presentTemplate(row)) };
    },
  );

  app.get(
    '/v1/templates/:id',
    {
      schema: {
        tags,
        summary: 'Get a template; with mergePersonId its merge fields are applied for that person',
        params: IdParams,
        querystring: TemplateGetQuery,
        response: responses({ 200: Template }),
      },
    },
    async (request) => {
      const row = await readableTemplate(db, request.auth, request.params.id, 'email');
      const personId = request.query.mergePersonId;
      if (personId === undefined) return presentTemplate(row);
      return mergedTemplate(row, await mergeDataFor(db, request.auth, personId));
    },
  );

  app.post(
    '/v1/templates/merge',
    {
      schema: {
        tags,
        summary:
          'Merge an email template for a person: the template with subject and body merged (nothing is sent)',
        body: TemplateMergeBody,
        response: responses({ 200: Template }),
      },
    },
    async (request) => {
      const { templateId, mergePersonId, recipients } = request.body;
      const row = await readableTemplate(db, request.auth, templateId, 'email');
      return mergedTemplate(row, await mergeDataFor(db, request.auth, mergePersonId, recipients));
    },
  );

  app.post(
    '/v1/templates',
    {
      schema: {
        tags,
        summary: 'Create an email template',
        body: TemplateCreateBody,
        response: responses({ 201: Template }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const row = await createTemplate(
        db,
        request.auth,
        'email',
        {
          name: body.name,
          subject: body.subject ?? '',
          body: body.body ?? '',
          isShared: toBool(body.isShared) ?? false,
        },
        now(),
      );
      return reply.code(201).send(presentTemplate(row));
    },
  );

  app.put(
    '/v1/templates/:id',
    {
      schema: {
        tags,
        summary: 'Update a template (Owner, Admin or its creator)',
        params: IdParams,
        body: TemplateUpdateBody,
        response: responses({ 200: Template }),
      },
    },
    async (request) => {
      const body = request.body;
      const change = { ...body, isShared: toBool(body.isShared) };
      const row = await changeTemplate(db, request.auth, request.params.id, 'email', change, now());
      return presentTemplate(row);
    },
  );

  app.delete(
    '/v1/templates/:id',
    {
      schema: {
        tags,
        summary:
          'Delete a template (Owner, Admin or its creator); refused while an action plan sends from it',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await removeTemplate(db, request.auth, request.params.id, 'email');
      return reply.code(204).send(null);
    },
  );
};
