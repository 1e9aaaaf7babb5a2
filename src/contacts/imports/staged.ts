import type { CombinedWrites } from '../../platform/db/combined-writes.js';
import type { Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { type PersonState, changedFields } from '../people/people.state.js';
import {
  type ChangedPerson,
  insertPeople,
  type NewPerson,
  updatePeople,
} from '../people/people.bulk.js';
import type { EventName } from '../../accounts/webhooks/event-names.js';
import type { EventBatch } from '../../accounts/webhooks/outbox.js';

/**
 * Ids standing for the people a batch creates until they are inserted: above every real id and
 * ascending in creation order, like the ids they stand for, so the matching index's rule (the
 * lowest id wins) decides as it would have with the real ones.
 */
const NEW_ID_BASE = 2 ** 48;

interface Staged {
  /** the state stored when the batch began; null for a person the batch creates */
  stored: PersonState | null;
  state: PersonState;
  /** a new person's creation time (also their first updated_at, as insertPerson dates them) */
  createdAt: string;
  /** when the batch last changed them */
  at: string;
}

/**
 * A batch's people in memory: the rows of a batch are applied here one after the other, with the
 * decisions and webhook events createPerson and savePerson make (events in the same order), and
 * `write` then stores them all at once (people.bulk.ts). A person written twice by the batch is
 * stored once, in its final state.
 */
export class StagedPeople {
  #people = new Map<number, Staged>();
  #events: { event: EventName; ids: number[]; data?: Record<string, unknown> }[] = [];
  #nextNew = NEW_ID_BASE;

  constructor(
    stored: Map<number, PersonState>,
    private stageNames: Map<number, string>,
  ) {
    for (const [id, state] of stored)
      this.#people.set(id, { stored: state, state, createdAt: '', at: '' });
  }

  /** A stored person read after the batch began. */
  add(personId: number, state: PersonState): void {
    this.#people.set(personId, { stored: state, state, createdAt: '', at: '' });
  }

  has(personId: number): boolean {
    return this.#people.has(personId);
  }

  /** The person as the batch has left them so far. */
  state(personId: number): PersonState {
    return this.#people.get(personId)!.state;
  }

  /** A new person (createPerson), created and last updated `at`: their id stands in until `write`. */
  create(state: PersonState, at: string): number {
    const id = this.#nextNew++;
    this.#people.set(id, { stored: null, state, createdAt: at, at });
    this.#emit('peopleCreated', id);
    if (state.tags.length) this.#emit('peopleTagsCreated', id, { tags: state.tags });
    return id;
  }

  /** savePerson: a new state and the events of what changed; false (and nothing) if nothing did. */
  update(personId: number, after: PersonState, at: string): boolean {
    const person = this.#people.get(personId)!;
    const before = person.state;
    const changed = changedFields(before, after);
    if (changed.length === 0) return false;
    person.state = after;
    person.at = at;
    this.#emit('peopleUpdated', personId);
    if (changed.includes('stageId') && after.stageId !== null)
      this.#emit('peopleStageUpdated', personId, {
        stage: this.stageNames.get(after.stageId) ?? null,
      });
    const had = new Set(before.tags.map((t) => t.toLowerCase()));
    const tags = after.tags.filter((t) => !had.has(t.toLowerCase()));
    if (tags.length) this.#emit('peopleTagsCreated', personId, { tags });
    return true;
  }

  #emit(event: EventName, id: number, data?: Record<string, unknown>) {
    this.#events.push(data === undefined ? { event, ids: [id] } : { event, ids: [id], data });
  }

  /**
   * Inserts the new people, and adds to `writes` the updates of the changed ones and their lookup
   * rows; records the events with the real ids. Answers the real id of each stand-in.
   */
  async write(
    trx: Trx,
    dialect: DialectName,
    accountId: number,
    events: EventBatch,
    writes: CombinedWrites,
  ): Promise<Map<number, number>> {
    const created: number[] = [];
    const fresh: NewPerson[] = [];
    const changes: ChangedPerson[] = [];
    for (const [id, p] of this.#people) {
      if (!p.stored) {
        created.push(id);
        fresh.push({
          state: p.state,
          createdVia: 'Import',
          createdAt: p.createdAt,
          updatedAt: p.at,
        });
      } else if (p.state !== p.stored)
        changes.push({ personId: id, before: p.stored, after: p.state, at: p.at });
    }
    const ids = await insertPeople(trx, dialect, accountId, fresh, writes);
    const real = new Map(created.map((standIn, k) => [standIn, ids[k]]));
    await updatePeople(trx, dialect, accountId, changes, writes);
    for (const { event, ids: eventIds, data } of this.#events)
      await events.emit(
        trx,
        accountId,
        event,
        eventIds.map((id) => real.get(id) ?? id),
        data,
      );
    return real;
  }
}
