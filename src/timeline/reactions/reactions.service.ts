import type { Selectable } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { DbOrTrx } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { notFound } from '../../platform/http/errors.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { isoSeconds } from '../../platform/time.js';
import { missing } from '../timeline.shared.js';
import { notesQuery } from '../notes/notes.repo.js';
import type { ReactionsTable } from '../notes/notes.tables.js';
import { type ResolvedRef, resolveRef, resolveRefType } from './reactions.refs.js';

/**
 * Reactions: one emoji per user per record (reacting twice with the same emoji returns the
 * existing reaction). A user removes only their own reaction.
 */
export type ReactionRow = Selectable<ReactionsTable>;

/** A reaction on a record the caller may see, or 404. */
export async function getReaction(ctx: AppContext, auth: AuthUser, id: number) {
  const row = await ctx.db
    .selectFrom('reactions')
    .selectAll()
    .where('account_id', '=', auth.accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return missing('Reaction', id);
  await resolveRef(ctx.db, auth, ctx.config.publicUrl, row.ref_type, row.ref_id).catch(() =>
    missing('Reaction', id),
  );
  return row;
}

/** Reactions on notes the caller can see, of one kind of record or one record when asked. */
export function reactionsList(
  db: DbOrTrx,
  auth: AuthUser,
  q: { refType?: string; refId?: number },
) {
  let query = db
    .selectFrom('reactions')
    .selectAll('reactions')
    .where('reactions.account_id', '=', auth.accountId)
    .where('reactions.note_id', 'in', notesQuery(db, auth).clearSelect().select('notes.id'));
  if (q.refType !== undefined)
    query = query.where('reactions.ref_type', '=', resolveRefType(q.refType).name);
  if (q.refId !== undefined) query = query.where('reactions.ref_id', '=', q.refId);
  return query;
}

const mine = (db: DbOrTrx, auth: AuthUser, ref: ResolvedRef, emoji: string) =>
  db
    .selectFrom('reactions')
    .selectAll()
    .where('account_id', '=', auth.accountId)
    .where('ref_type', '=', ref.refType)
    .where('ref_id', '=', ref.refId)
    .where('user_id', '=', auth.userId)
    .where('emoji', '=', emoji)
    .executeTakeFirst();

/** The caller's reaction with this emoji; `created` is false when it was there already. */
export async function react(
  ctx: AppContext,
  auth: AuthUser,
  target: { refType: string; refId: number },
  emoji: string,
): Promise<{ row: ReactionRow; created: boolean }> {
  const { db, config } = ctx;
  const now = ctx.clock.now();
  const ref = await resolveRef(db, auth, config.publicUrl, target.refType, target.refId);
  const existing = await mine(db, auth, ref, emoji);
  if (existing) return { row: existing, created: false };
  try {
    const id = await db.transaction().execute(async (trx) => {
      await resolveRef(trx, auth, config.publicUrl, ref.refType, ref.refId);
      const row = await trx
        .insertInto('reactions')
        .values({
          account_id: auth.accountId,
          ref_type: ref.refType,
          ref_id: ref.refId,
          note_id: ref.noteId,
          emoji,
          user_id: auth.userId,
          user_name: auth.name,
          created_at: isoSeconds(now),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await emit(trx, auth.accountId, 'reactionCreated', [row.id], ref.data, now);
      return row.id;
    });
    return { row: await getReaction(ctx, auth, id), created: true };
  } catch (err) {
    // Two identical reactions at once: the unique index keeps one, and both callers get it.
    if (!isUniqueViolation(err)) throw err;
    return { row: (await mine(db, auth, ref, emoji))!, created: false };
  }
}

/** Removes the caller's reaction with `emoji`, or (no emoji) all of the caller's reactions on the record. */
export async function unreact(
  ctx: AppContext,
  auth: AuthUser,
  target: { refType: string; refId: number },
  emoji: string | undefined,
): Promise<void> {
  const ref = await resolveRef(ctx.db, auth, ctx.config.publicUrl, target.refType, target.refId);
  await ctx.db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('reactions')
      .select('id')
      .where('account_id', '=', auth.accountId)
      .where('ref_type', '=', ref.refType)
      .where('ref_id', '=', ref.refId)
      .where('user_id', '=', auth.userId);
    if (emoji !== undefined) query = query.where('emoji', '=', emoji);
    const ids = (await query.execute()).map((r) => r.id);
    if (ids.length === 0)
      throw notFound(`Reaction ${emoji ?? ''} of yours on ${ref.refType} ${ref.refId}`);
    await trx.deleteFrom('reactions').where('id', 'in', ids).execute();
    await emit(trx, auth.accountId, 'reactionDeleted', ids, ref.data, ctx.clock.now());
  });
}
