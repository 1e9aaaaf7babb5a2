import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses, toBool } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import {
  Note,
  NoteCreateBody,
  NoteGetQuery,
  NoteListQuery,
  NoteUpdateBody,
} from './notes.schemas.js';
import { presentNote } from './notes.presenter.js';
import { changedNoteValues, noteExtras, notes } from './notes.repo.js';
import { addNote, listNotes } from './notes.answers.js';

const tags = ['notes'];

export const notesRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/notes',
    {
      schema: {
        tags,
        summary: 'Notes (newest first)',
        querystring: NoteListQuery,
        response: responses({ 200: ListEnvelope('notes', Note) }),
      },
    },
    async (request) => listNotes(ctx, request.auth, request, request.query),
  );

  app.get(
    '/v1/notes/:id',
    {
      schema: {
        tags,
        summary: 'A note, optionally with its reactions and threaded replies',
        params: IdParams,
        querystring: NoteGetQuery,
        response: responses({ 200: Note }),
      },
    },
    async (request) => {
      const row = await notes.get(db, request.auth, request.params.id);
      const extras = await noteExtras(db, request.auth.accountId, row.id, {
        reactions: toBool(request.query.includeReactions) === true,
        threadedReplies: toBool(request.query.includeThreadedReplies) === true,
      });
      return presentNote(row, extras);
    },
  );

  app.post(
    '/v1/notes',
    {
      schema: {
        tags,
        summary: 'Add a note to a person',
        body: NoteCreateBody,
        response: responses({ 201: Note }),
      },
    },
    async (request, reply) => reply.code(201).send(await addNote(ctx, request.auth, request.body)),
  );

  app.put(
    '/v1/notes/:id',
    {
      schema: {
        tags,
        summary: 'Change a note: only the fields sent change',
        params: IdParams,
        body: NoteUpdateBody,
        response: responses({ 200: Note }),
      },
    },
    async (request) => {
      const { auth, body } = request;
      await notes.update(ctx, auth, request.params.id, (trx, row) =>
        changedNoteValues(trx, auth, row, body),
      );
      return presentNote(await notes.get(db, auth, request.params.id));
    },
  );

  app.delete(
    '/v1/notes/:id',
    {
      schema: {
        tags,
        summary: 'Delete a note (its reactions and replies go with it)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await notes.remove(ctx, request.auth, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
