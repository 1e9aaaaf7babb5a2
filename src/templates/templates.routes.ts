import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { AuthUser } from '../http/auth.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import { IdParams, responses, toBool } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../http/pagination.js';
import { assertPersonVisible } from '../people/people.access.js';
import { isoSeconds } from '../time.js';
import { Template, TemplateCreateBody, TemplateGetQuery, TemplateListQuery, TemplateUpdateBody } from './templates.schemas.js';
import { canEditTemplate, findVisibleTemplate, plansUsingTemplate, type TemplateRow, visibleTemplates } from './templates.repo.js';
import { containsText } from '../db/text-match.js';
import { presentTemplate } from './templates.presenter.js';
import { loadMergeData } from './merge-data.js';
import { renderMergeFields } from './merge-fields.js';
import type { DbOrTrx } from '../db/database.js';

const tags = ['templates'];

/** The template if the caller may change it: 404 when they cannot see it, 403 when they only may read it. */
async function editableTemplate(db: DbOrTrx, auth: AuthUser, id: number): Promise<TemplateRow> {
  const row = await findVisibleTemplate(db, auth, id);
  if (!row) throw notFound(`Template ${id}`);
  if (!canEditTemplate(auth, row)) throw forbidden('Only the Owner, an Admin or the user who created this template may change it');
  return row;
}

/** Email templates with merge fields. Everyone may create their own; shared ones are seen by the whole account. */
export const templatesRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());

  app.get('/v1/templates', {
    schema: { tags, summary: 'List email templates (yours and the shared ones; Owner and Admin see all)', querystring: TemplateListQuery, response: responses({ 200: ListEnvelope('templates', Template) }) },
  }, async (request) => {
    const q = request.query;
    let query = visibleTemplates(db, request.auth);
    if (q.name) query = query.where(containsText('name', q.name));
    if (q.isShared !== undefined) query = query.where('is_shared', '=', toBool(q.isShared) ? 1 : 0);
    const page = await paginate<TemplateRow>(request, {
      collection: 'templates',
      query,
      page: readPage(q),
      sort: readSort(q.sort, { name: 'name', created: 'created_at', updated: 'updated_at' }, 'id'),
      idExpression: 'id',
      publicUrl: ctx.config.publicUrl,
    });
    return { _metadata: page.metadata, templates: page.rows.map((row) => presentTemplate(row)) };
  });

  app.get('/v1/templates/:id', {
    schema: { tags, summary: 'Get a template; with mergePersonId its merge fields are applied for that person', params: IdParams, querystring: TemplateGetQuery, response: responses({ 200: Template }) },
  }, async (request) => {
    const row = await findVisibleTemplate(db, request.auth, request.params.id);
    if (!row) throw notFound(`Template ${request.params.id}`);
    const personId = request.query.mergePersonId;
    if (personId === undefined) return presentTemplate(row);
    await assertPersonVisible(db, request.auth, personId);
    const merge = await loadMergeData(db, request.auth.accountId, personId, request.auth.userId);
    if (!merge) throw notFound(`Person ${personId}`);
    return presentTemplate(row, { subject: renderMergeFields(row.subject, merge.data), body: renderMergeFields(row.body, merge.data) });
  });

  app.post('/v1/templates', {
    schema: { tags, summary: 'Create an email template', body: TemplateCreateBody, response: responses({ 201: Template }) },
  }, async (request, reply) => {
    const body = request.body;
    const at = now();
    const row = await db.transaction().execute((trx) =>
      trx
        .insertInto('templates')
        .values({
          account_id: request.auth.accountId,
          name: body.name.trim(),
          subject: body.subject ?? '',
          body: body.body ?? '',
          is_shared: toBool(body.isShared) ? 1 : 0,
          created_by_id: request.auth.userId,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return reply.code(201).send(presentTemplate(row));
  });

  app.put('/v1/templates/:id', {
    schema: { tags, summary: 'Update a template (Owner, Admin or its creator)', params: IdParams, body: TemplateUpdateBody, response: responses({ 200: Template }) },
  }, async (request) => {
    const body = request.body;
    const row = await db.transaction().execute(async (trx) => {
      const current = await editableTemplate(trx, request.auth, request.params.id);
      const changes = {
        name: body.name?.trim() ?? current.name,
        subject: body.subject ?? current.subject,
        body: body.body ?? current.body,
        is_shared: body.isShared === undefined ? current.is_shared : toBool(body.isShared) ? 1 : 0,
      };
      if ((Object.keys(changes) as (keyof typeof changes)[]).every((k) => changes[k] === current[k])) return current;
      return trx.updateTable('templates').set({ ...changes, updated_at: now() }).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow();
    });
    return presentTemplate(row);
  });

  app.delete('/v1/templates/:id', {
    schema: { tags, summary: 'Delete a template (Owner, Admin or its creator); refused while an action plan sends from it', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    await db.transaction().execute(async (trx) => {
      const row = await editableTemplate(trx, request.auth, request.params.id);
      const plans = await plansUsingTemplate(trx, request.auth.accountId, row.id);
      if (plans.length) throw conflict(`Template ${row.id} is used by action plan(s) ${plans.map((p) => `'${p}'`).join(', ')}; change their steps first`);
      await trx.deleteFrom('templates').where('id', '=', row.id).execute();
    });
    return reply.code(204).send(null);
  });
};
