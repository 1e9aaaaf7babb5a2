import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses, toBool } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import { readableTemplate, templatesList, type TemplateRow } from './templates.repo.js';
import { changeTemplate, createTemplate, removeTemplate } from './templates.service.js';
import { renderMergeFields } from './merge-fields.js';
import { mergeDataFor } from './templates.merge.js';
import {
  TextMessageTemplate,
  TextTemplateCreateBody,
  TextTemplateListQuery,
  TextTemplateMergeBody,
  TextTemplateMerged,
  TextTemplateUpdateBody,
} from './textMessageTemplates.schemas.js';

const tags = ['textMessageTemplates'];
const COLLECTION = 'textmessagetemplates';

/** A text template keeps its message where email templates keep their body. */
export function presentTextTemplate(row: TemplateRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    message: row.body,
    isShared: row.is_shared === 1,
    createdById: row.created_by_id,
  };
}

/**
 * Text-message templates: the same visibility and edit rules as email templates (everyone may
 * create their own; shared ones are seen by the whole account; Owner and Admin see and change all).
 */
export const textMessageTemplatesRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());

  app.get(
    '/v1/textMessageTemplates',
    {
      schema: {
        tags,
        summary: 'List text message templates (yours and the shared ones; Owner and Admin see all)',
        querystring: TextTemplateListQuery,
        response: responses({ 200: ListEnvelope(COLLECTION, TextMessageTemplate) }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await paginate<TemplateRow>(request, {
        collection: COLLECTION,
        query: templatesList(db, request.auth, 'text', q),
        page: readPage(q),
        sort: readSort(
          q.sort,
          { name: 'name', created: 'created_at', updated: 'updated_at' },
          'id',
        ),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, [COLLECTION]: page.rows.map(presentTextTemplate) };
    },
  );

  app.get(
    '/v1/textMessageTemplates/:id',
    {
      schema: {
        tags,
        summary: 'Get a text message template',
        params: IdParams,
        response: responses({ 200: TextMessageTemplate }),
      },
    },
    async (request) =>
      presentTextTemplate(await readableTemplate(db, request.auth, request.params.id, 'text')),
  );

  app.post(
    '/v1/textMessageTemplates/merge',
    {
      schema: {
        tags,
        summary: "Merge a text message template with a person's data (nothing is sent)",
        body: TextTemplateMergeBody,
        response: responses({ 200: TextTemplateMerged }),
      },
    },
    async (request) => {
      const { templateId, personId, recipients } = request.body;
      const row = await readableTemplate(db, request.auth, templateId, 'text');
      const data = await mergeDataFor(db, request.auth, personId, recipients);
      return { templateId, personId, mergedTemplate: renderMergeFields(row.body, data) };
    },
  );

  app.post(
    '/v1/textMessageTemplates',
    {
      schema: {
        tags,
        summary: 'Create a text message template',
        body: TextTemplateCreateBody,
        response: responses({ 201: TextMessageTemplate }),
      },
    },
    async (request, reply) => {
      const { name, message, isShared } = request.body;
      const values = { name, subject: '', body: message, isShared: toBool(isShared) ?? false };
      const row = await createTemplate(db, request.auth, 'text', values, now());
      return reply.code(201).send(presentTextTemplate(row));
    },
  );

  app.put(
    '/v1/textMessageTemplates/:id',
    {
      schema: {
        tags,
        summary: 'Update a text message template (Owner, Admin or its creator)',
        params: IdParams,
        body: TextTemplateUpdateBody,
        response: responses({ 200: TextMessageTemplate }),
      },
    },
    async (request) => {
      const { name, message, isShared } = request.body;
      const change = { name, body: message, isShared: toBool(isShared) };
      const row = await changeTemplate(db, request.auth, request.params.id, 'text', change, now());
      return presentTextTemplate(row);
    },
  );

  app.delete(
    '/v1/textMessageTemplates/:id',
    {
      schema: {
        tags,
        summary:
          'Delete a text message template (Owner, Admin or its creator); 403 while an action plan uses it',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await removeTemplate(db, request.auth, request.params.id, 'text');
      return reply.code(204).send(null);
    },
  );
};
