import type { Selectable } from 'kysely';
import type { NotesTable, ReactionsTable, ThreadedRepliesTable } from './notes.tables.js';

export type NoteRow = Selectable<NotesTable>;
export type ReactionRow = Selectable<ReactionsTable>;
export type ThreadedReplyRow = Selectable<ThreadedRepliesTable>;

export function presentReaction(row: ReactionRow) {
  return {
    id: row.id,
    created: row.created_at,
    refType: row.ref_type,
    refId: row.ref_id,
    body: row.emoji,
    userId: row.user_id,
    userName: row.user_name,
  };
}

export function presentThreadedReply(row: ThreadedReplyRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    refType: row.ref_type,
    refId: row.ref_id,
    body: row.body,
    userId: row.user_id,
    userName: row.user_name,
  };
}

export function presentNote(
  row: NoteRow,
  extras: { reactions?: ReactionRow[]; threadedReplies?: ThreadedReplyRow[] } = {},
) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    createdBy: row.created_by,
    createdById: row.created_by_id,
    updatedBy: row.updated_by,
    updatedById: row.updated_by_id,
    personId: row.person_id,
    subject: row.subject,
    body: row.body,
    isHtml: row.is_html === 1,
    ...(extras.reactions ? { reactions: extras.reactions.map(presentReaction) } : {}),
    ...(extras.threadedReplies
      ? { threadedReplies: extras.threadedReplies.map(presentThreadedReply) }
      : {}),
  };
}
