import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import type { ListRequest } from '../../platform/http/pagination.js';
import { presentNote } from './notes.presenter.js';
import { newNoteValues, notes, notesList } from './notes.repo.js';
import type { NoteCreateBody, NoteListQuery } from './notes.schemas.js';

/** What POST /v1/notes and the add_note tool do: the note stored, as GET shows it. */
export async function addNote(
  ctx: AppContext,
  auth: AuthUser,
  body: Static<typeof NoteCreateBody>,
) {
  const id = await notes.create(ctx, auth, (trx) => newNoteValues(trx, auth, body), {
    touchesPerson: true,
  });
  return presentNote(await notes.get(ctx.db, auth, id));
}

/** A page of the notes the caller may see (GET /v1/notes). */
export async function listNotes(
  ctx: AppContext,
  auth: AuthUser,
  request: ListRequest,
  q: Static<typeof NoteListQuery>,
) {
  return notes.listed(request, ctx, 'notes', notesList(ctx.db, auth, q), q, (row) =>
    presentNote(row),
  );
}
