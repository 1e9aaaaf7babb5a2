import type { AppContext } from '../../platform/context.js';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { forbidden } from '../../platform/http/errors.js';
import { mayChangeOwnedRecord } from '../../access/ownership.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { isoSeconds } from '../../platform/time.js';
import { missing } from '../timeline.shared.js';
import type { ThreadedReplyRow } from '../notes/notes.presenter.js';
import { notesQuery } from '../notes/notes.repo.js';
import { resolveRef } from '../reactions/reactions.refs.js';

/**
 * Threaded replies on a record. The author edits their reply; the author, an Owner or an Admin
 * deletes it. Each write emits its event with the record replied to (the ref's data).
 */

/** Replies on records the caller may see (today: notes of people they may see). */
function repliesQuery(db: DbOrTrx, auth: AuthUser) {
  return db
    .selectFrom('threaded_replies')
    .selectAll('threaded_replies')
    .where('threaded_replies.account_id', '=', auth.accountId)
    .where('threaded_replies.note_id', 'in', notesQuery(db, auth).clearSelect().select('notes.id'));
}

/** The caller's replies, of one record when refType/refId say so (an unknown record: none). */
export async function repliesList(
  ctx: AppContext,
  auth: AuthUser,
  q: { refType?: string; refId?: number },
) {
  const query = repliesQuery(ctx.db, auth);
  if (q.refType === undefined && q.refId === undefined) return query;
  const ref = await resolveRef(
    ctx.db,
    auth,
    ctx.config.publicUrl,
    q.refType ?? 'Note',
    q.refId ?? 0,
  ).catch(() => null);
  return ref
    ? query
        .where('threaded_replies.ref_type', '=', ref.refType)
        .where('threaded_replies.ref_id', '=', ref.refId)
    : query.where('threaded_replies.id', '=', -1);
}

export async function getReply(db: DbOrTrx, auth: AuthUser, id: number): Promise<ThreadedReplyRow> {
  return (
    (await repliesQuery(db, auth).where('threaded_replies.id', '=', id).executeTakeFirst()) ??
    missing('Threaded reply', id)
  );
}

export function createReply(
  ctx: AppContext,
  auth: AuthUser,
  b: { refType: string; refId: number; body: string },
): Promise<number> {
  const now = ctx.clock.now();
  const at = isoSeconds(now);
  return ctx.db.transaction().execute(async (trx) => {
    const ref = await resolveRef(trx, auth, ctx.config.publicUrl, b.refType, b.refId);
    const row = await trx
      .insertInto('threaded_replies')
      .values({
        account_id: auth.accountId,
        ref_type: ref.refType,
        ref_id: ref.refId,
        note_id: ref.noteId,
        body: b.body,
        user_id: auth.userId,
        user_name: auth.name,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await emit(trx, auth.accountId, 'threadedReplyCreated', [row.id], ref.data, now);
    return row.id;
  });
}

export async function editReply(ctx: AppContext, auth: AuthUser, id: number, body: string) {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await getReply(trx, auth, id);
    if (row.user_id !== auth.userId) throw forbidden('Only the author can edit a reply');
    const ref = await resolveRef(trx, auth, ctx.config.publicUrl, row.ref_type, row.ref_id);
    await trx
      .updateTable('threaded_replies')
      .set({ body, updated_at: isoSeconds(now) })
      .where('id', '=', row.id)
      .execute();
    await emit(trx, auth.accountId, 'threadedReplyUpdated', [row.id], ref.data, now);
  });
}

export async function deleteReply(ctx: AppContext, auth: AuthUser, id: number) {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await getReply(trx, auth, id);
    if (!mayChangeOwnedRecord(auth, row.user_id))
      throw forbidden('Only the author, an Owner or an Admin can delete a reply');
    const ref = await resolveRef(trx, auth, ctx.config.publicUrl, row.ref_type, row.ref_id);
    await trx.deleteFrom('threaded_replies').where('id', '=', row.id).execute();
    await emit(trx, auth.accountId, 'threadedReplyDeleted', [row.id], ref.data, ctx.clock.now());
  });
}
