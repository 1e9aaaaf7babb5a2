import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { type AuthUser, seesEveryone } from '../http/auth.js';
import type { DbOrTrx } from '../db/database.js';
import { forbidden } from '../http/errors.js';
import { IdParams, responses, SystemField } from '../http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage } from '../http/pagination.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import { missing, timelineSort } from '../timeline/timeline.shared.js';
import { ThreadedReply } from '../notes/notes.schemas.js';
import { presentThreadedReply, type ThreadedReplyRow } from '../notes/notes.presenter.js';
import { notesQuery } from '../notes/notes.repo.js';
import { resolveRef } from '../reactions/reactions.refs.js';

const tags = ['threadedReplies'];
const ReplyText = Type.String({ minLength: 1, maxLength: 20_000 });
const CreateBody = Type.Object(
  { refType: Type.String({ minLength: 1, maxLength: 50 }), refId: Type.Integer({ minimum: 1 }), body: ReplyText, ...SystemField },
  { additionalProperties: false },
);
const UpdateBody = Type.Object({ body: ReplyText, ...SystemField }, { additionalProperties: false });
const ListQuery = Type.Object(
  { ...PageQuery, refType: Type.Optional(Type.String({ maxLength: 50 })), refId: Type.Optional(Type.Integer({ minimum: 1 })), sort: Type.Optional(Type.String()), system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/** Replies on records the caller may see (today: notes of people they may see). */
function repliesQuery(db: DbOrTrx, auth: AuthUser) {
  return db.selectFrom('threaded_replies').selectAll('threaded_replies')
    .where('threaded_replies.account_id', '=', auth.accountId)
    .where('threaded_replies.note_id', 'in', notesQuery(db, auth).clearSelect().select('notes.id'));
}

/** Threaded replies on a record. The author edits their reply; the author, an Owner or an Admin deletes it. */
export const threadedRepliesRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config } = ctx;
  const find = (dbx: DbOrTrx, auth: AuthUser, id: number) => repliesQuery(dbx, auth).where('threaded_replies.id', '=', id).executeTakeFirst();

  app.get('/v1/threadedReplies', {
    schema: { tags, summary: 'Threaded replies (filters refType + refId)', querystring: ListQuery, response: responses({ 200: ListEnvelope('threadedReplies', ThreadedReply) }) },
  }, async (request) => {
    let query = repliesQuery(db, request.auth);
    const { refType, refId } = request.query;
    if (refType !== undefined || refId !== undefined) {
      const ref = await resolveRef(db, request.auth, config.publicUrl, refType ?? 'Note', refId ?? 0).catch(() => null);
      query = ref ? query.where('threaded_replies.ref_type', '=', ref.refType).where('threaded_replies.ref_id', '=', ref.refId) : query.where('threaded_replies.id', '=', -1);
    }
    const page = await paginate<ThreadedReplyRow>(request, {
      collection: 'threadedReplies', query, page: readPage(request.query), sort: timelineSort(request.query.sort, 'threaded_replies'),
      idExpression: 'threaded_replies.id', publicUrl: config.publicUrl,
    });
    return { _metadata: page.metadata, threadedReplies: page.rows.map(presentThreadedReply) };
  });

  app.get('/v1/threadedReplies/:id', {
    schema: { tags, summary: 'A threaded reply', params: IdParams, response: responses({ 200: ThreadedReply }) },
  }, async (request) => presentThreadedReply((await find(db, request.auth, request.params.id)) ?? missing('Threaded reply', request.params.id)));

  app.post('/v1/threadedReplies', {
    schema: { tags, summary: 'Reply to a record', body: CreateBody, response: responses({ 201: ThreadedReply }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const now = ctx.clock.now();
    const at = isoSeconds(now);
    const id = await db.transaction().execute(async (trx) => {
      const ref = await resolveRef(trx, auth, config.publicUrl, request.body.refType, request.body.refId);
      const row = await trx.insertInto('threaded_replies').values({
        account_id: auth.accountId, ref_type: ref.refType, ref_id: ref.refId, note_id: ref.noteId, body: request.body.body,
        user_id: auth.userId, user_name: auth.name, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      await emit(trx, auth.accountId, 'threadedReplyCreated', [row.id], ref.data, now);
      return row.id;
    });
    return reply.code(201).send(presentThreadedReply((await find(db, auth, id))!));
  });

  app.put('/v1/threadedReplies/:id', {
    schema: { tags, summary: 'Edit your reply', params: IdParams, body: UpdateBody, response: responses({ 200: ThreadedReply }) },
  }, async (request) => {
    const auth = request.auth;
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Threaded reply', request.params.id);
      if (row.user_id !== auth.userId) throw forbidden('Only the author can edit a reply');
      const ref = await resolveRef(trx, auth, config.publicUrl, row.ref_type, row.ref_id);
      await trx.updateTable('threaded_replies').set({ body: request.body.body, updated_at: isoSeconds(now) }).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'threadedReplyUpdated', [row.id], ref.data, now);
    });
    return presentThreadedReply((await find(db, auth, request.params.id))!);
  });

  app.delete('/v1/threadedReplies/:id', {
    schema: { tags, summary: 'Delete a reply (its author, an Owner or an Admin)', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    const auth = request.auth;
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Threaded reply', request.params.id);
      if (row.user_id !== auth.userId && !seesEveryone(auth)) throw forbidden('Only the author, an Owner or an Admin can delete a reply');
      const ref = await resolveRef(trx, auth, config.publicUrl, row.ref_type, row.ref_id);
      await trx.deleteFrom('threaded_replies').where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'threadedReplyDeleted', [row.id], ref.data, ctx.clock.now());
    });
    return reply.code(204).send(null);
  });
};
