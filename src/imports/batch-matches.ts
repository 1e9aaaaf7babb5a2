import type { Trx } from '../db/database.js';
import { visiblePersonIds } from '../access/visibility.js';
import { matchingIndex, padded } from '../people/people.matching.js';
import type { PersonState } from '../people/people.state.js';
import { loadPeople } from '../people/people.bulk.js';
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

export async function batchIndex(
  trx: Trx,
  run: ImportRun,
  people: PersonState[],
): Promise<MatchIndex> {
  const index = await matchingIndex(
    trx,
    run.import.account_id,
    people.flatMap((p) => p.emails.map((e) => e.value)),
    people.flatMap((p) => p.phones.map((e) => e.value)),
  );
  const matched = [...new Set(people.map((p) => index.match(p)?.personId ?? 0))].filter(Boolean);
  const visible = new Set<number>();
  for (let i = 0; i < matched.length; i += 500) {
    const rows = await visiblePersonIds(trx, run.auth)
      .where('people.id', 'in', padded(matched.slice(i, i + 500)))
      .execute();
    for (const r of rows) visible.add(r.id);
  }
  return {
    visible,
    match: index.match,
    // People this batch writes are the importer's to see (created by them, or already visible).
    learn(personId, state) {
      visible.add(personId);
      index.learn(personId, state);
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

/**
 * The people the batch's rows match, read (and locked, unless a dry run) in one go. Any person a
 * row comes to match later in the batch is one of these or one the batch wrote (see matchingIndex:
 * an id only ever gives way to a lower one the batch learnt); `stateOf` reads any other on its own.
 */
export async function matchedPeople(
  trx: Trx,
  run: ImportRun,
  people: PersonState[],
  index: MatchIndex,
) {
  if (run.import.on_duplicate === 'skip') return new Map<number, PersonState>();
  const ids = [...new Set(people.map((p) => index.match(p)?.personId ?? 0))];
  return loadPeople(
    trx,
    run.ctx.dialect,
    run.import.account_id,
    ids.filter((id) => index.visible.has(id)),
    { lock: !run.seen },
  );
}
