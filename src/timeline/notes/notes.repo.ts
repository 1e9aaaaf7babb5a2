import type { Static } from '@sinclair/typebox';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { toBool } from '../../platform/http/schemas.js';
import { personRecords } from '../personRecords.js';
import { requirePerson } from '../timeline.shared.js';
import type { NoteRow, ReactionRow, ThreadedReplyRow } from './notes.presenter.js';
import type { NoteCreateBody, NoteUpdateBody } from './notes.schemas.js';
import './notes.tables.js';

export const notes = personRecords({
  table: 'notes',
  label: 'Note',
  events: { created: 'notesCreated', updated: 'notesUpdated', deleted: 'notesDeleted' },
});

/** Notes the caller may see (the base of reactions' and threaded replies' visibility too). */
export const notesQuery = notes.visible;

/** A note the caller may see, or undefined (another account's, or a person the caller cannot see). */
export const findVisibleNote = notes.find;

export function notesList(db: DbOrTrx, auth: AuthUser, q: { personId?: number }) {
  const query = notes.visible(db, auth);
  return q.personId === undefined ? query : query.where('notes.person_id', '=', q.personId);
}

/** A note's reactions and threaded replies, each only when asked for. */
export async function noteExtras(
  db: DbOrTrx,
  accountId: number,
  noteId: number,
  include: { reactions: boolean; threadedReplies: boolean },
): Promise<{ reactions?: ReactionRow[]; threadedReplies?: ThreadedReplyRow[] }> {
  const [reactions, threadedReplies] = await Promise.all([
    include.reactions
      ? db
          .selectFrom('reactions')
          .selectAll()
          .where('account_id', '=', accountId)
          .where('note_id', '=', noteId)
          .orderBy('id')
          .execute()
      : undefined,
    include.threadedReplies
      ? db
          .selectFrom('threaded_replies')
          .selectAll()
          .where('account_id', '=', accountId)
          .where('note_id', '=', noteId)
          .orderBy('id')
          .execute()
      : undefined,
  ]);
  return { reactions, threadedReplies };
}

export async function newNoteValues(trx: Trx, auth: AuthUser, b: Static<typeof NoteCreateBody>) {
  return {
    person_id: await requirePerson(trx, auth, b.personId),
    subject: b.subject ?? '',
    body: b.body,
    is_html: toBool(b.isHtml) ? 1 : 0,
    created_by_id: auth.userId,
    created_by: auth.name,
    updated_by_id: auth.userId,
    updated_by: auth.name,
  };
}

/** Only the fields sent change; the caller becomes the note's last editor. */
export async function changedNoteValues(
  trx: Trx,
  auth: AuthUser,
  row: NoteRow,
  b: Static<typeof NoteUpdateBody>,
) {
  if (b.personId !== undefined && b.personId !== row.person_id)
    await requirePerson(trx, auth, b.personId);
  return {
    person_id: b.personId ?? row.person_id,
    subject: b.subject ?? row.subject,
    body: b.body ?? row.body,
    is_html: b.isHtml === undefined ? row.is_html : toBool(b.isHtml) ? 1 : 0,
    updated_by_id: auth.userId,
    updated_by: auth.name,
  };
}
