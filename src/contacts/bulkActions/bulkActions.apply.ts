import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { ApiError } from '../../platform/http/errors.js';
import { isoSeconds } from '../../platform/time.js';
import { canSeePerson } from '../../access/visibility.js';
import { assertGate, Gate } from '../../access/gates.js';
import { assertMayMoveIntoPond } from '../../access/ponds.js';
import type { EmitEvent } from '../../accounts/webhooks/outbox.js';
import { applyPersonInput, type PersonInput } from '../people/people.input.js';
import type { PersonRow } from '../people/people.presenter.js';
import { removePerson, savePerson } from '../people/people.service.js';
import { type PersonState, stateFromRow } from '../people/people.state.js';
import type { BulkActionRow } from './bulkActions.repo.js';

export interface ChunkOutcome {
  changed: number;
  skipped: number;
  errors: { personId: number; message: string }[];
}

/** What PUT /v1/people/:id would be sent to make this person's change. */
function inputFor(row: BulkActionRow, before: PersonState): { input: PersonInput; merge: boolean } {
  const value = row.value ?? '';
  if (row.action === 'assign') return { input: { assignedUserId: Number(value) }, merge: false };
  if (row.action === 'stage') return { input: { stageId: Number(value) }, merge: false };
  if (row.action === 'addTag') return { input: { tags: [value] }, merge: true };
  const gone = value.toLowerCase();
  return { input: { tags: before.tags.filter((t) => t.toLowerCase() !== gone) }, merge: false };
}

/**
 * Applies the action to these people in the caller's transaction, with the rules of PUT and
 * DELETE /v1/people/:id as the acting user now holds them: a person they no longer see is
 * skipped, one the rules refuse (an ApiError, raised before any write of that person) is skipped
 * with the reason. Any other error rolls the whole chunk back.
 */
export async function applyToPeople(
  trx: Trx,
  env: { ctx: AppContext; row: BulkActionRow; auth: AuthUser; emit: EmitEvent },
  personIds: number[],
): Promise<ChunkOutcome> {
  const { ctx, row, auth, emit } = env;
  let query = trx
    .selectFrom('people')
    .selectAll()
    .where('account_id', '=', auth.accountId)
    .where('id', 'in', personIds)
    .where((eb) => canSeePerson(eb, auth))
    .orderBy('id');
  if (ctx.dialect === 'postgres') query = query.forUpdate();
  const people = await query.execute();
  const outcome: ChunkOutcome = {
    changed: 0,
    skipped: personIds.length - people.length,
    errors: [],
  };
  const at = isoSeconds(ctx.clock.now());
  const change = { actor: { id: auth.userId, name: auth.name } };
  for (const person of people) {
    try {
      if (row.action === 'delete') {
        assertGate(Gate.personDeleter, auth);
        await removePerson(trx, auth, person.id, emit);
        outcome.changed++;
        continue;
      }
      const before = stateFromRow(person as unknown as PersonRow);
      const { input, merge } = inputFor(row, before);
      const after = await applyPersonInput(trx, auth.accountId, before, input, {
        mergeTags: merge,
      });
      await assertMayMoveIntoPond(trx, auth, before.assignedPondId, after.assignedPondId);
      // No ctx: the new agent hears of a bulk hand-over once, when the action ends.
      if (await savePerson(trx, auth.accountId, person.id, before, after, at, emit, change))
        outcome.changed++;
      else outcome.skipped++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      outcome.skipped++;
      outcome.errors.push({ personId: person.id, message: err.message });
    }
  }
  return outcome;
}
