import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import type { RoleGate } from '../../access/gates.js';
import { isoSeconds } from '../../platform/time.js';
import { type AttachmentRow, checkUri, presentAttachment } from './attachments.shared.js';
import { attachmentSchemas } from './attachments.schemas.js';
import {
  type AttachmentStore,
  attachmentsQuery,
  deleteAttachment,
  findVisibleAttachment,
  insertAttachment,
  ofParent,
  updateAttachment,
} from './attachments.repo.js';

/** What differs between deal and person attachments; everything else is this one module. */
export interface AttachmentSpec extends AttachmentStore {
  path: '/v1/dealAttachments' | '/v1/personAttachments';
  collection: string;
  noun: string;
  parentKey: 'dealId' | 'personId';
  parentNoun: string;
  /** the parent's id when the caller sees it */
  findParent(db: DbOrTrx, auth: AuthUser, id: number): Promise<number | undefined>;
  writeGate?: RoleGate;
  httpsOnly: boolean;
  /** the real API takes person attachments only from a registered system (X-System-Key) */
  requireRegisteredSystem: boolean;
}

/**
 * Attachment routes for one kind of parent: metadata of files kept elsewhere. Changing them fires
 * no webhook event: the interface has none for attachments (and dealsUpdated does not fire for a
 * deal's files, rule 5).
 */
export function attachmentRoutes(spec: AttachmentSpec): RoutePlugin {
  const table = spec.table;
  const schemas = attachmentSchemas(spec.parentKey);
  const tags = [spec.collection];
  const present = (row: AttachmentRow) => presentAttachment(row, spec.parentKey);

  return async (app, { ctx }) => {
    const { db } = ctx;
    const gate = spec.writeGate ? { gate: spec.writeGate } : undefined;
    const load = async (request: FastifyRequest, id: number): Promise<AttachmentRow> => {
      const row = await findVisibleAttachment(db, request.auth, spec, id);
      if (!row) throw notFound(`${spec.noun} ${id}`);
      return row;
    };
    const checkSystem = (request: FastifyRequest) => {
      if (spec.requireRegisteredSystem && !request.system.verified)
        throw forbidden(
          `${spec.noun}s can only be changed by a registered system: send X-System and its X-System-Key`,
        );
    };

    app.get(
      spec.path,
      {
        schema: {
          tags,
          summary: `List ${spec.noun.toLowerCase()}s`,
          querystring: schemas.list,
          response: responses({ 200: ListEnvelope(spec.collection, schemas.record) }),
        },
      },
      async (request) => {
        const q = request.query as Record<string, unknown> & {
          sort?: string;
          limit?: number;
          offset?: number;
          next?: string;
        };
        let query = attachmentsQuery(db, request.auth, spec);
        const parentId = q[spec.parentKey];
        if (typeof parentId === 'number') query = ofParent(query, spec, parentId);
        const page = await paginate<AttachmentRow>(request, {
          collection: spec.collection,
          query,
          page: readPage(q),
          sort: readSort(
            q.sort,
            { created: `${table}.created_at`, fileName: `${table}.file_name` },
            `${table}.id`,
          ),
          idExpression: `${table}.id`,
          publicUrl: ctx.config.publicUrl,
        });
        return { _metadata: page.metadata, [spec.collection]: page.rows.map(present) };
      },
    );

    app.get(
      `${spec.path}/:id`,
      {
        schema: {
          tags,
          summary: `Get a ${spec.noun.toLowerCase()}`,
          params: IdParams,
          response: responses({ 200: schemas.record }),
        },
      },
      async (request) => present(await load(request, request.params.id)),
    );

    app.post(
      spec.path,
      {
        config: gate,
        schema: {
          tags,
          summary: `Attach a file hosted elsewhere (its uri) to a ${spec.parentNoun}`,
          body: schemas.create,
          response: responses({ 201: schemas.record }),
        },
      },
      async (request, reply) => {
        checkSystem(request);
        const body = request.body as Record<string, unknown> & {
          uri?: string;
          fileName: string;
          fileSize?: number;
        };
        const parentId = body[spec.parentKey] as number;
        const uri = checkUri(body.uri, spec.httpsOnly);
        if ((await spec.findParent(db, request.auth, parentId)) === undefined)
          throw badRequest(
            `${spec.parentKey}: no ${spec.parentNoun} ${parentId} that you can see`,
            [{ field: spec.parentKey, message: `unknown ${spec.parentNoun}` }],
          );
        const id = await insertAttachment(
          db,
          request.auth,
          spec,
          parentId,
          { uri, fileName: body.fileName.trim(), fileSize: body.fileSize ?? null },
          isoSeconds(ctx.clock.now()),
        );
        return reply.code(201).send(present(await load(request, id)));
      },
    );

    app.put(
      `${spec.path}/:id`,
      {
        config: gate,
        schema: {
          tags,
          summary: `Update a ${spec.noun.toLowerCase()}`,
          params: IdParams,
          body: schemas.update,
          response: responses({ 200: schemas.record }),
        },
      },
      async (request) => {
        checkSystem(request);
        const row = await load(request, request.params.id);
        const body = (request.body ?? {}) as {
          uri?: string;
          fileName?: string;
          fileSize?: number | null;
        } & Partial<Record<'dealId' | 'personId', number>>;
        const parentId = body[spec.parentKey];
        if (parentId !== undefined && parentId !== present(row)[spec.parentKey])
          throw badRequest(
            `${spec.parentKey} ${parentId} is not this attachment's ${spec.parentNoun}; an attachment cannot move`,
            [{ field: spec.parentKey, message: `must be the attachment's own ${spec.parentNoun}` }],
          );
        const values = {
          uri: body.uri !== undefined ? checkUri(body.uri, spec.httpsOnly) : row.uri,
          fileName: body.fileName?.trim() ?? row.file_name,
          fileSize: body.fileSize !== undefined ? body.fileSize : row.file_size,
        };
        const at = isoSeconds(ctx.clock.now());
        await updateAttachment(db, request.auth.accountId, spec, row.id, values, at);
        return present(await load(request, row.id));
      },
    );

    app.delete(
      `${spec.path}/:id`,
      {
        config: gate,
        schema: {
          tags,
          summary: `Remove a ${spec.noun.toLowerCase()} (the file itself is not touched)`,
          params: IdParams,
          response: responses({ 204: Type.Null() }),
        },
      },
      async (request, reply) => {
        checkSystem(request);
        const row = await load(request, request.params.id);
        await deleteAttachment(db, request.auth.accountId, spec, row.id);
        return reply.code(204).send(null);
      },
    );
  };
}
