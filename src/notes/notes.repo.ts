import type { DbOrTrx } from '../db/database.js';
import type { AuthUser } from '../http/auth.js';
import { onlyVisiblePeople } from '../timeline/timeline.shared.js';
import type { NoteRow } from './notes.presenter.js';
import './notes.tables.js';

export function notesQuery(db: DbOrTrx, auth: AuthUser) {
  return onlyVisiblePeople(db.selectFrom('notes').selectAll('notes').where('notes.account_id', '=', auth.accountId), db, auth, 'notes.person_id');
}

/** A note the caller may see, or undefined (another account's, or a person the caller cannot see). */
export async function findVisibleNote(db: DbOrTrx, auth: AuthUser, id: number): Promise<NoteRow | undefined> {
  return notesQuery(db, auth).where('notes.id', '=', id).executeTakeFirst();
}
