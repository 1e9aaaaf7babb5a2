import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Selectable } from 'kysely';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { AuthUser } from '../http/auth.js';
import type { DbOrTrx } from '../db/database.js';
import { Bool, IdParams, Nullable, responses, SystemField, toBool } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage } from '../http/pagination.js';
import { touchLastActivity } from '../people/people.access.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import { allOptional, missing, onlyVisiblePeople, requirePerson, timelineListQuery, timelineSort } from '../timeline/timeline.shared.js';
import type { TextMessagesTable } from './textMessages.tables.js';

type TextRow = Selectable<TextMessagesTable>;
const tags = ['textMessages'];

const TextMessage = Type.Object({
  id: Type.Integer(), created: Type.String(), updated: Type.String(), personId: Type.Integer(), message: Type.String(),
  toNumber: Type.String(), fromNumber: Type.String(), isIncoming: Type.Boolean(), userId: Nullable(Type.Integer()), system: Type.String(),
});
const fields = {
  personId: Type.Integer({ minimum: 1 }),
  message: Type.String({ minLength: 1, maxLength: 20_000 }),
  toNumber: Type.String({ maxLength: 50 }),
  fromNumber: Type.String({ maxLength: 50 }),
  isIncoming: Bool(),
};
const CreateBody = Type.Object({ ...allOptional(fields), personId: fields.personId, message: fields.message, ...SystemField }, { additionalProperties: false });
const UpdateBody = Type.Object({ ...allOptional(fields), ...SystemField }, { additionalProperties: false });
const ListQuery = Type.Object(timelineListQuery, { additionalProperties: false });

export function presentTextMessage(row: TextRow) {
  return {
    id: row.id, created: row.created_at, updated: row.updated_at, personId: row.person_id, message: row.message,
    toNumber: row.to_number, fromNumber: row.from_number, isIncoming: row.is_incoming === 1, userId: row.user_id, system: row.system,
  };
}

function textsQuery(db: DbOrTrx, auth: AuthUser) {
  return onlyVisiblePeople(db.selectFrom('text_messages').selectAll('text_messages').where('text_messages.account_id', '=', auth.accountId), db, auth, 'text_messages.person_id');
}

/** Logged text messages: Hearth records them on the timeline, it sends no SMS. */
export const textMessagesRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config } = ctx;
  const find = (dbx: DbOrTrx, auth: AuthUser, id: number) => textsQuery(dbx, auth).where('text_messages.id', '=', id).executeTakeFirst();

  app.get('/v1/textMessages', {
    schema: { tags, summary: 'Logged text messages', querystring: ListQuery, response: responses({ 200: ListEnvelope('textmessages', TextMessage) }) },
  }, async (request) => {
    let query = textsQuery(db, request.auth);
    if (request.query.personId !== undefined) query = query.where('text_messages.person_id', '=', request.query.personId);
    if (request.query.system) query = query.where('text_messages.system', '=', request.query.system);
    const page = await paginate<TextRow>(request, {
      collection: 'textmessages', query, page: readPage(request.query), sort: timelineSort(request.query.sort, 'text_messages'),
      idExpression: 'text_messages.id', publicUrl: config.publicUrl,
    });
    return { _metadata: page.metadata, textmessages: page.rows.map(presentTextMessage) };
  });

  app.get('/v1/textMessages/:id', {
    schema: { tags, summary: 'A logged text message', params: IdParams, response: responses({ 200: TextMessage }) },
  }, async (request) => presentTextMessage((await find(db, request.auth, request.params.id)) ?? missing('Text message', request.params.id)));

  app.post('/v1/textMessages', {
    schema: { tags, summary: 'Log a text message (sends nothing)', body: CreateBody, response: responses({ 201: TextMessage }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const b = request.body;
    const now = ctx.clock.now();
    const at = isoSeconds(now);
    const id = await db.transaction().execute(async (trx) => {
      const personId = await requirePerson(trx, auth, b.personId);
      const row = await trx.insertInto('text_messages').values({
        account_id: auth.accountId, person_id: personId, message: b.message, to_number: b.toNumber ?? '', from_number: b.fromNumber ?? '',
        is_incoming: toBool(b.isIncoming) ? 1 : 0, user_id: auth.userId, system: request.system?.name ?? '', created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      await touchLastActivity(trx, auth.accountId, personId, at);
      await emit(trx, auth.accountId, 'textMessagesCreated', [row.id], undefined, now);
      return row.id;
    });
    return reply.code(201).send(presentTextMessage((await find(db, auth, id))!));
  });

  app.put('/v1/textMessages/:id', {
    schema: { tags, summary: 'Change a logged text message', params: IdParams, body: UpdateBody, response: responses({ 200: TextMessage }) },
  }, async (request) => {
    const auth = request.auth;
    const b = request.body;
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Text message', request.params.id);
      if (b.personId !== undefined && b.personId !== row.person_id) await requirePerson(trx, auth, b.personId);
      await trx.updateTable('text_messages').set({
        person_id: b.personId ?? row.person_id, message: b.message ?? row.message, to_number: b.toNumber ?? row.to_number,
        from_number: b.fromNumber ?? row.from_number, is_incoming: b.isIncoming === undefined ? row.is_incoming : toBool(b.isIncoming) ? 1 : 0,
        updated_at: isoSeconds(now),
      }).where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'textMessagesUpdated', [row.id], undefined, now);
    });
    return presentTextMessage((await find(db, auth, request.params.id))!);
  });

  app.delete('/v1/textMessages/:id', {
    schema: { tags, summary: 'Delete a logged text message', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    const auth = request.auth;
    await db.transaction().execute(async (trx) => {
      const row = (await find(trx, auth, request.params.id)) ?? missing('Text message', request.params.id);
      await trx.deleteFrom('text_messages').where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'textMessagesDeleted', [row.id], undefined, ctx.clock.now());
    });
    return reply.code(204).send(null);
  });
};
