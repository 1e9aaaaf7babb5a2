import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { IdParams, responses, toBool } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage } from '../http/pagination.js';
import { touchLastActivity } from '../people/people.access.js';
import { emit } from '../webhooks/outbox.js';
import { isoSeconds } from '../time.js';
import { missing, requirePerson, timelineSort } from '../timeline/timeline.shared.js';
import { Note, NoteCreateBody, NoteGetQuery, NoteListQuery, NoteUpdateBody } from './notes.schemas.js';
import { type NoteRow, presentNote } from './notes.presenter.js';
import { findVisibleNote, notesQuery } from './notes.repo.js';

const tags = ['notes'];

export const notesRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config } = ctx;

  app.get('/v1/notes', {
    schema: { tags, summary: 'Notes (newest first)', querystring: NoteListQuery, response: responses({ 200: ListEnvelope('notes', Note) }) },
  }, async (request) => {
    let query = notesQuery(db, request.auth);
    if (request.query.personId !== undefined) query = query.where('notes.person_id', '=', request.query.personId);
    const page = await paginate<NoteRow>(request, {
      collection: 'notes', query, page: readPage(request.query), sort: timelineSort(request.query.sort, 'notes'),
      idExpression: 'notes.id', publicUrl: config.publicUrl,
    });
    return { _metadata: page.metadata, notes: page.rows.map((row) => presentNote(row)) };
  });

  app.get('/v1/notes/:id', {
    schema: { tags, summary: 'A note, optionally with its reactions and threaded replies', params: IdParams, querystring: NoteGetQuery, response: responses({ 200: Note }) },
  }, async (request) => {
    const auth = request.auth;
    const row = (await findVisibleNote(db, auth, request.params.id)) ?? missing('Note', request.params.id);
    const reactions = toBool(request.query.includeReactions)
      ? await db.selectFrom('reactions').selectAll().where('account_id', '=', auth.accountId).where('note_id', '=', row.id).orderBy('id').execute()
      : undefined;
    const threadedReplies = toBool(request.query.includeThreadedReplies)
      ? await db.selectFrom('threaded_replies').selectAll().where('account_id', '=', auth.accountId).where('note_id', '=', row.id).orderBy('id').execute()
      : undefined;
    return presentNote(row, { reactions, threadedReplies });
  });

  app.post('/v1/notes', {
    schema: { tags, summary: 'Add a note to a person', body: NoteCreateBody, response: responses({ 201: Note }) },
  }, async (request, reply) => {
    const auth = request.auth;
    const body = request.body;
    const now = ctx.clock.now();
    const at = isoSeconds(now);
    const id = await db.transaction().execute(async (trx) => {
      const personId = await requirePerson(trx, auth, body.personId);
      const row = await trx.insertInto('notes').values({
        account_id: auth.accountId, person_id: personId, subject: body.subject ?? '', body: body.body,
        is_html: toBool(body.isHtml) ? 1 : 0, created_by_id: auth.userId, created_by: auth.name,
        updated_by_id: auth.userId, updated_by: auth.name, created_at: at, updated_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      await touchLastActivity(trx, auth.accountId, personId, at);
      await emit(trx, auth.accountId, 'notesCreated', [row.id], undefined, now);
      return row.id;
    });
    return reply.code(201).send(presentNote((await findVisibleNote(db, auth, id))!));
  });

  app.put('/v1/notes/:id', {
    schema: { tags, summary: 'Change a note: only the fields sent change', params: IdParams, body: NoteUpdateBody, response: responses({ 200: Note }) },
  }, async (request) => {
    const auth = request.auth;
    const body = request.body;
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      const row = (await findVisibleNote(trx, auth, request.params.id)) ?? missing('Note', request.params.id);
      if (body.personId !== undefined && body.personId !== row.person_id) await requirePerson(trx, auth, body.personId);
      await trx.updateTable('notes').set({
        person_id: body.personId ?? row.person_id,
        subject: body.subject ?? row.subject,
        body: body.body ?? row.body,
        is_html: body.isHtml === undefined ? row.is_html : toBool(body.isHtml) ? 1 : 0,
        updated_by_id: auth.userId, updated_by: auth.name, updated_at: isoSeconds(now),
      }).where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'notesUpdated', [row.id], undefined, now);
    });
    return presentNote((await findVisibleNote(db, auth, request.params.id))!);
  });

  app.delete('/v1/notes/:id', {
    schema: { tags, summary: 'Delete a note (its reactions and replies go with it)', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    const auth = request.auth;
    await db.transaction().execute(async (trx) => {
      const row = (await findVisibleNote(trx, auth, request.params.id)) ?? missing('Note', request.params.id);
      await trx.deleteFrom('notes').where('account_id', '=', auth.accountId).where('id', '=', row.id).execute();
      await emit(trx, auth.accountId, 'notesDeleted', [row.id], undefined, ctx.clock.now());
    });
    return reply.code(204).send(null);
  });
};
