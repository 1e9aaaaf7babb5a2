import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { AuthUser } from '../http/auth.js';
import { badRequest, notFound } from '../http/errors.js';
import { IdParams, responses, SystemField } from '../http/schemas.js';
import { isUniqueViolation } from '../db/dialect.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import { missing } from '../timeline/timeline.shared.js';
import { Reaction } from '../notes/notes.schemas.js';
import { presentReaction } from '../notes/notes.presenter.js';
import '../notes/notes.tables.js';
import { resolveRef, resolveRefType } from './reactions.refs.js';
import { notesQuery } from '../notes/notes.repo.js';
import type { ReactionsTable } from '../notes/notes.tables.js';
import type { Selectable } from 'kysely';
import { ListEnvelope, PageQuery, paginate, readPage, readSort } from '../http/pagination.js';

const tags = ['reactions'];
const Emoji = Type.String({ minLength: 1, maxLength: 32, description: 'The emoji' });
const RefParams = Type.Object({ refType: Type.String({ minLength: 1, maxLength: 50 }), refId: Type.Integer({ minimum: 1 }) });
const ReactBody = Type.Object({ body: Emoji, ...SystemField }, { additionalProperties: false });
const UnreactQuery = Type.Object({ emoji: Type.Optional(Emoji), body: Type.Optional(Emoji), system: Type.Optional(Type.String()) }, { additionalProperties: false });
const UnreactBody = Type.Union([Type.Null(), Type.Object({ emoji: Type.Optional(Emoji), body: Type.Optional(Emoji), ...SystemField }, { additionalProperties: false })]);

/**
 * Reactions: one emoji per user per record (reacting twice with the same emoji returns the
 * existing reaction with 200). A user removes only their own reaction.
 */
export const reactionsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config } = ctx;

  const visibleReaction = async (auth: AuthUser, id: number) => {
    const row = await db.selectFrom('reactions').selectAll().where('account_id', '=', auth.accountId).where('id', '=', id).executeTakeFirst();
    if (!row) return missing('Reaction', id);
    await resolveRef(db, auth, config.publicUrl, row.ref_type, row.ref_id).catch(() => missing('Reaction', id));
    return row;
  };

  app.get('/v1/reactions', {
    schema: {
      tags,
      summary: 'List reactions (on notes the caller can see); filter by the record reacted to',
      querystring: Type.Object({ ...PageQuery, refType: Type.Optional(Type.String()), refId: Type.Optional(Type.Integer({ minimum: 1 })), system: Type.Optional(Type.String()) }, { additionalProperties: false }),
      response: responses({ 200: ListEnvelope('reactions', Reaction) }),
    },
  }, async (request) => {
    const q = request.query;
    let query = db
      .selectFrom('reactions')
      .selectAll('reactions')
      .where('reactions.account_id', '=', request.auth.accountId)
      .where('reactions.note_id', 'in', notesQuery(db, request.auth).clearSelect().select('notes.id'));
    if (q.refType !== undefined) query = query.where('reactions.ref_type', '=', resolveRefType(q.refType).name);
    if (q.refId !== undefined) query = query.where('reactions.ref_id', '=', q.refId);
    const page = await paginate<Selectable<ReactionsTable>>(request, {
      collection: 'reactions', query, page: readPage(q), sort: readSort(undefined, {}, 'reactions.id'), idExpression: 'reactions.id', publicUrl: config.publicUrl,
    });
    return { _metadata: page.metadata, reactions: page.rows.map(presentReaction) };
  });

  app.get('/v1/reactions/:id', {
    schema: { tags, summary: 'A reaction', params: IdParams, response: responses({ 200: Reaction }) },
  }, async (request) => presentReaction(await visibleReaction(request.auth, request.params.id)));

  app.post('/v1/reactions/:refType/:refId', {
    schema: { tags, summary: 'React to a record with an emoji', params: RefParams, body: ReactBody, response: responses({ 200: Reaction, 201: Reaction }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const now = ctx.clock.now();
    const find = (emoji: string) => db.selectFrom('reactions').selectAll().where('account_id', '=', auth.accountId)
      .where('ref_type', '=', ref.refType).where('ref_id', '=', ref.refId).where('user_id', '=', auth.userId).where('emoji', '=', emoji).executeTakeFirst();
    const ref = await resolveRef(db, auth, config.publicUrl, request.params.refType, request.params.refId);
    const existing = await find(request.body.body);
    if (existing) return reply.code(200).send(presentReaction(existing));
    try {
      const id = await db.transaction().execute(async (trx) => {
        await resolveRef(trx, auth, config.publicUrl, ref.refType, ref.refId);
        const row = await trx.insertInto('reactions').values({
          account_id: auth.accountId, ref_type: ref.refType, ref_id: ref.refId, note_id: ref.noteId, emoji: request.body.body,
          user_id: auth.userId, user_name: auth.name, created_at: isoSeconds(now),
        }).returning('id').executeTakeFirstOrThrow();
        await emit(trx, auth.accountId, 'reactionCreated', [row.id], ref.data, now);
        return row.id;
      });
      return reply.code(201).send(presentReaction(await visibleReaction(auth, id)));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return reply.code(200).send(presentReaction((await find(request.body.body))!));
    }
  });

  app.delete('/v1/reactions/:refType/:refId', {
    schema: {
      tags, summary: "Remove the caller's reaction; the emoji in the query (emoji=) or the body ({emoji} or {body})",
      params: RefParams, querystring: UnreactQuery, body: UnreactBody, response: responses({ 204: Type.Null() }),
    },
  }, async (request, reply) => {
    const auth = request.auth;
    const emoji = request.query.emoji ?? request.query.body ?? request.body?.emoji ?? request.body?.body;
    if (!emoji) throw badRequest("Say which reaction to remove: 'emoji' in the query or the body");
    const ref = await resolveRef(db, auth, config.publicUrl, request.params.refType, request.params.refId);
    await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('reactions').select('id').where('account_id', '=', auth.accountId).where('ref_type', '=', ref.refType)
        .where('ref_id', '=', ref.refId).where('user_id', '=', auth.userId).where('emoji', '=', emoji).executeTakeFirst();
      if (!row) throw notFound(`Reaction ${emoji} of yours on ${ref.refType} ${ref.refId}`);
      await trx.deleteFrom('reactions').where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'reactionDeleted', [row.id], ref.data, ctx.clock.now());
    });
    return reply.code(204).send(null);
  });
};
