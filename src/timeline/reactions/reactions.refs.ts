import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { findVisibleNote } from '../notes/notes.repo.js';
import { refUri } from '../timeline.shared.js';

/** Record kinds that take reactions and threaded replies: the name clients send and where it lives. */
const REF_TYPES: Record<string, { name: string; path: string }> = {
  note: { name: 'Note', path: '/v1/notes' },
  notes: { name: 'Note', path: '/v1/notes' },
};

export interface ResolvedRef {
  refType: string;
  refId: number;
  noteId: number | null;
  /** Event data: {refType, refId, refUri} */
  data: { refType: string; refId: number; refUri: string };
}

export function resolveRefType(refType: string): { name: string; path: string } {
  const kind = Object.hasOwn(REF_TYPES, refType.toLowerCase())
    ? REF_TYPES[refType.toLowerCase()]
    : undefined;
  if (!kind) throw badRequest(`Unknown refType '${refType}'; supported: Note`);
  return kind;
}

/** Checks that the referenced record exists and the caller may see it (404 otherwise). */
export async function resolveRef(
  db: DbOrTrx,
  auth: AuthUser,
  publicUrl: string,
  refType: string,
  refId: number,
): Promise<ResolvedRef> {
  const kind = resolveRefType(refType);
  const note = await findVisibleNote(db, auth, refId);
  if (!note) throw notFound(`${kind.name} ${refId}`);
  return {
    refType: kind.name,
    refId,
    noteId: note.id,
    data: { refType: kind.name, refId, refUri: refUri(publicUrl, kind.path, refId) },
  };
}
