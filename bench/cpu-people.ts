// The people every server of `npm run bench -- cpu` is seeded with, and the bodies it posts.

export interface PersonInput {
  firstName?: string;
  lastName?: string;
  emails?: { value: string }[];
  [key: string]: unknown;
}

export function seedPerson(i: number): PersonInput {
  return {
    firstName: 'Person',
    lastName: `Lee${i}`,
    emails: [{ value: `person${i}@bench.test` }],
    phones: [{ value: `555${String(i).padStart(7, '0')}` }],
    tags: ['bench'],
  };
}

/** A text search matching about ten seeded people (`Lee42` and `Lee420`…`Lee429`). */
export const searchText = () => `Lee${10 + Math.floor(Math.random() * 90)}`;
