import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { DbOrTrx } from '../db/database.js';
import { badRequest, notFound } from '../http/errors.js';
import { IdParams, responses } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../http/pagination.js';
import { isoSeconds } from '../time.js';
import { DealAttachment, DealAttachmentCreateBody, DealAttachmentListQuery, DealAttachmentUpdateBody } from './deals.schemas.js';
import { canSeeDeal, findVisibleDeal } from './deals.repo.js';
import { assertCanWriteDeals } from './deals.service.js';
import type { DealAttachmentsTable } from './deals.tables.js';

type AttachmentRow = Selectable<DealAttachmentsTable>;
const tags = ['dealAttachments'];

export function presentDealAttachment(row: AttachmentRow) {
  return {
    id: row.id,
    dealId: row.deal_id,
    uri: row.uri,
    fileName: row.file_name,
    fileSize: row.file_size,
    createdById: row.created_by_id,
    created: row.created_at,
    updated: row.updated_at,
  };
}

function checkUri(uri: string): string {
  const value = uri.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`'uri' must be an absolute http or https URL, got '${uri}'`, [{ field: 'uri', message: 'invalid URL' }]);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest("'uri' must use http or https", [{ field: 'uri', message: 'invalid URL' }]);
  return value;
}

/** Attachments visible to the caller: those of deals the caller can see. */
function attachmentsQuery(db: DbOrTrx, request: FastifyRequest) {
  return db
    .selectFrom('deal_attachments')
    .selectAll('deal_attachments')
    .where('deal_attachments.account_id', '=', request.auth.accountId)
    .where('deal_attachments.deal_id', 'in', (eb) =>
      eb.selectFrom('deals').select('deals.id').where('deals.account_id', '=', request.auth.accountId).where((inner) => canSeeDeal(inner, request.auth)),
    );
}

/**
 * `/v1/dealAttachments`: metadata of files kept elsewhere (uri, fileName, fileSize). Changing them
 * fires no webhook event: the interface has no attachment events and dealsUpdated does not fire
 * for a deal's files (rule 5).
 */
export const dealAttachmentsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const load = async (request: FastifyRequest, id: number) => {
    const row = await attachmentsQuery(db, request).where('deal_attachments.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`Deal attachment ${id}`);
    return row;
  };

  app.get('/v1/dealAttachments', {
    schema: { tags, summary: 'List deal attachments', querystring: DealAttachmentListQuery, response: responses({ 200: ListEnvelope('dealAttachments', DealAttachment) }) },
  }, async (request) => {
    const q = request.query;
    let query = attachmentsQuery(db, request);
    if (q.dealId !== undefined) query = query.where('deal_attachments.deal_id', '=', q.dealId);
    const page = await paginate<AttachmentRow>(request, {
      collection: 'dealAttachments',
      query,
      page: readPage(q),
      sort: readSort(q.sort, { created: 'deal_attachments.created_at', fileName: 'deal_attachments.file_name' }, 'deal_attachments.id'),
      idExpression: 'deal_attachments.id',
      publicUrl: ctx.config.publicUrl,
    });
    return { _metadata: page.metadata, dealAttachments: page.rows.map(presentDealAttachment) };
  });

  app.get('/v1/dealAttachments/:id', {
    schema: { tags, summary: 'Get a deal attachment', params: IdParams, response: responses({ 200: DealAttachment }) },
  }, async (request) => presentDealAttachment(await load(request, request.params.id)));

  app.post('/v1/dealAttachments', {
    schema: { tags, summary: 'Attach a file (metadata only) to a deal', body: DealAttachmentCreateBody, response: responses({ 201: DealAttachment }) },
  }, async (request, reply) => {
    assertCanWriteDeals(request.auth);
    const body = request.body;
    const deal = await findVisibleDeal(db, request.auth, body.dealId);
    if (!deal) throw badRequest(`dealId: no deal ${body.dealId} that you can see`, [{ field: 'dealId', message: 'unknown deal' }]);
    const at = now();
    const row = await db
      .insertInto('deal_attachments')
      .values({
        account_id: request.auth.accountId, deal_id: deal.id, uri: checkUri(body.uri), file_name: body.fileName.trim(),
        file_size: body.fileSize ?? null, created_by_id: request.auth.userId, created_at: at, updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return reply.code(201).send(presentDealAttachment(row));
  });

  app.put('/v1/dealAttachments/:id', {
    schema: { tags, summary: 'Update a deal attachment', params: IdParams, body: DealAttachmentUpdateBody, response: responses({ 200: DealAttachment }) },
  }, async (request) => {
    assertCanWriteDeals(request.auth);
    const row = await load(request, request.params.id);
    const body = request.body ?? {};
    const updated = await db
      .updateTable('deal_attachments')
      .set({
        uri: body.uri !== undefined ? checkUri(body.uri) : row.uri,
        file_name: body.fileName?.trim() ?? row.file_name,
        file_size: body.fileSize !== undefined ? body.fileSize : row.file_size,
        updated_at: now(),
      })
      .where('account_id', '=', request.auth.accountId)
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentDealAttachment(updated);
  });

  app.delete('/v1/dealAttachments/:id', {
    schema: { tags, summary: 'Remove a deal attachment', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    assertCanWriteDeals(request.auth);
    const row = await load(request, request.params.id);
    await db.deleteFrom('deal_attachments').where('account_id', '=', request.auth.accountId).where('id', '=', row.id).execute();
    return reply.code(204).send(null);
  });
};
