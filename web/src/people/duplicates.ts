import { apiFetch } from '../api/http';
import type { CheckDuplicateResult, Person } from '../api/types';

/** The view of a match: who it is as far as the user may know. */
export interface Duplicate {
  /** "Emily Carter" when the user may open them, else who they are assigned to */
  description: string;
  personId: number | null;
  matchedBy: string;
}

/** The person who already has this email or phone, as the New person form warns about them. */
export async function findDuplicate(email?: string, phone?: string): Promise<Duplicate | null> {
  const query = new URLSearchParams();
  if (email?.trim()) query.set('email', email.trim());
  if (phone?.trim()) query.set('phone', phone.trim());
  if (![...query.keys()].length) return null;
  const { json } = await apiFetch(`/v1/people/checkDuplicate?${query}`);
  const answer = json as CheckDuplicateResult;
  if (!answer.found) return null;
  const matchedBy = answer.matchedBy ?? 'email';
  if (answer.personId === null)
    return {
      description: `A person assigned to ${answer.assignedTo ?? 'nobody'}`,
      personId: null,
      matchedBy,
    };
  const person = (await apiFetch(`/v1/people/${answer.personId}?fields=name`)).json as Pick<
    Person,
    'name'
  >;
  return { description: person.name || 'An unnamed person', personId: answer.personId, matchedBy };
}
