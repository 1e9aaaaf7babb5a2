import type { Trx } from '../../platform/db/database.js';
import { insertRows, reusableWrite } from '../../platform/db/reusable-query.js';
import type { PersonState } from './people.state.js';

/** The values a person's lookup tables (emails, phones, tags, collaborators) hold for a state. */
export function lookupValues(state: PersonState) {
  return {
    person_emails: [...new Set(state.emails.map((e) => e.value.toLowerCase()))],
    person_phones: [...new Set(state.phones.map((p) => p.normalized).filter(Boolean))],
    person_tags: [...new Set(state.tags.map((t) => t.toLowerCase()))],
    person_collaborators: [...new Set(state.collaborators.map((c) => c.id))],
  };
}
export const LOOKUP_COLUMNS = {
  person_emails: 'email',
  person_phones: 'normalized',
  person_tags: 'tag',
  person_collaborators: 'user_id',
} as const;

/** Keeps the lookup tables in step with a person's JSON columns: adds what is new, removes what is gone. */
export async function syncLookups(
  trx: Trx,
  accountId: number,
  personId: number,
  state: PersonState,
  previous?: PersonState,
): Promise<void> {
  const wanted = lookupValues(state);
  const had = previous ? lookupValues(previous) : null;
  for (const table of Object.keys(LOOKUP_COLUMNS) as (keyof typeof LOOKUP_COLUMNS)[]) {
    const column = LOOKUP_COLUMNS[table];
    const values: (string | number)[] = wanted[table];
    const before = new Set<string | number>(had?.[table] ?? []);
    const gone = [...before].filter((value) => !values.includes(value));
    const added = values.filter((value) => !before.has(value));
    if (gone.length)
      await deleteLookupRows(trx, `${table}:${gone.length}`, accountId, personId, ...gone);
    if (added.length) {
      await insertRows(
        trx,
        table,
        added.map(
          (value) => ({ account_id: accountId, person_id: personId, [column]: value }) as never,
        ),
      );
    }
  }
}

// One compiled form per lookup table and number of values removed.
const deleteLookupRows = reusableWrite(
  (db, shape, accountId: number, personId: number, ...gone: (string | number)[]) => {
    const table = shape.split(':')[0] as keyof typeof LOOKUP_COLUMNS;
    return db
      .deleteFrom(table)
      .where('account_id', '=', accountId)
      .where('person_id', '=', personId)
      .where(LOOKUP_COLUMNS[table], 'in', gone as never[]);
  },
);
