import type { Trx } from '../../platform/db/database.js';
import { canSeePerson, visiblePersonIds } from '../../access/visibility.js';
import { matchingIndex, padded } from '../people/people.matching.js';
import type { PersonRow } from '../people/people.presenter.js';
import { type PersonState, stateFromRow } from '../people/people.state.js';
import type { ImportRun } from './run.js';
import { RowError } from './rows.js';

// Which stored person each row of a batch matches by email or phone, and whether the importer sees them.

export function identityKeys(state: PersonState): string[] {
  return [
    ...state.emails.map((e) => `e:${e.value.toLowerCase()}`),
    ...state.phones.map((p) => `p:${p.normalized}`),
  ];
}

/** The batch's matches: its people's emails and phones, and which matched people the importer sees. */
export interface MatchIndex extends Awaited<ReturnType<typeof matchingIndex>> {
  visible: Set<number>;
}

/**
 * The batch's matches and the matched people the importer sees, read (and locked, unless a dry run)
 * in one go: one query for the emails and phones, one for the people (on PostgreSQL each a round
 * trip). Any person a row comes to match later in the batch is one of these or one the batch wrote
 * (see matchingIndex: an id only ever gives way to a lower one the batch learnt); readUnstaged
 * (batch.ts) reads any other on its own. With on_duplicate 'skip' no one is read, only seen.
 */
export async function batchIndex(
  trx: Trx,
  run: ImportRun,
  people: PersonState[],
): Promise<{ index: MatchIndex; stored: Map<number, PersonState> }> {
  const index = await matchingIndex(
    trx,
    run.import.account_id,
    people.flatMap((p) => p.emails.map((e) => e.value)),
    people.flatMap((p) => p.phones.map((e) => e.value)),
  );
  const matched = [...new Set(people.map((p) => index.match(p)?.personId ?? 0))].filter(Boolean);
  const visible = new Set<number>();
  const stored = new Map<number, PersonState>();
  const skip = run.import.on_duplicate === 'skip';
  for (let i = 0; i < matched.length; i += 500) {
    const ids = padded(matched.slice(i, i + 500));
    if (skip) {
      const rows = await visiblePersonIds(trx, run.auth).where('people.id', 'in', ids).execute();
      for (const r of rows) visible.add(r.id);
      continue;
    }
    // lockPerson's rule for read-modify-write: locked in id order on PostgreSQL, so two batches
    // locking overlapping people queue up instead of deadlocking (SQLite has one writer).
    let query = trx
      .selectFrom('people')
      .selectAll()
      .where('account_id', '=', run.import.account_id)
      .where('id', 'in', ids)
      .where((eb) => canSeePerson(eb, run.auth))
      .orderBy('id');
    if (!run.seen && run.ctx.dialect === 'postgres') query = query.forUpdate();
    for (const row of await query.execute()) {
      visible.add(row.id);
      stored.set(row.id, stateFromRow(row as unknown as PersonRow));
    }
  }
  return {
    stored,
    index: {
      visible,
      match: index.match,
      // People this batch writes are the importer's to see (created by them, or already visible).
      learn(personId, state) {
        visible.add(personId);
        index.learn(personId, state);
      },
    },
  };
}

export function matchOf(state: PersonState, index: MatchIndex) {
  const match = index.match(state);
  if (match && !index.visible.has(match.personId))
    throw new RowError(
      `A person with this ${match.matchedBy} exists and is not yours; an Owner or Admin can import this row`,
    );
  return match;
}
