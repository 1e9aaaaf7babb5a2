import type { Db, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { notFound } from '../../platform/http/errors.js';
import { defaultOwnership } from '../../access/ownership.js';
import { assertMayMoveIntoPond } from '../../access/ponds.js';
import { emit, type EmitEvent } from '../../accounts/webhooks/outbox.js';
import type { AppContext } from '../../platform/context.js';
import { applyPersonInput, type PersonInput } from './people.input.js';
import { findMatchingPerson } from './people.matching.js';
import { BY_HEARTH, type ChangeContext, followPersonChanges } from './people.handover.js';
import {
  defaultStageId,
  deletePerson,
  findVisiblePerson,
  insertPerson,
  lockPerson,
  updatePersonState,
} from './people.repo.js';
import {
  changedFields,
  emptyPersonState,
  mergePersonStates,
  type PersonState,
  stateFromRow,
} from './people.state.js';

function addedTags(before: string[], after: string[]): string[] {
  const had = new Set(before.map((t) => t.toLowerCase()));
  return after.filter((t) => !had.has(t.toLowerCase()));
}

async function stageName(trx: Trx, stageId: number | null): Promise<string | null> {
  if (stageId === null) return null;
  const row = await trx
    .selectFrom('stages')
    .select('name')
    .where('id', '=', stageId)
    .executeTakeFirst();
  return row?.name ?? null;
}

/** Inserts a person and emits peopleCreated (and peopleTagsCreated for its tags). */
export async function createPerson(
  trx: Trx,
  accountId: number,
  state: PersonState,
  meta: { createdVia: string; at: string; createdAt?: string; lastActivity?: string | null },
  emitEvent: EmitEvent = emit,
): Promise<number> {
  const withStage =
    state.stageId === null ? { ...state, stageId: await defaultStageId(trx, accountId) } : state;
  const id = await insertPerson(trx, accountId, withStage, meta);
  await emitEvent(trx, accountId, 'peopleCreated', [id]);
  if (withStage.tags.length)
    await emitEvent(trx, accountId, 'peopleTagsCreated', [id], { tags: withStage.tags });
  return id;
}

/**
 * Stores a person's new state and emits what changed: peopleUpdated for the watched fields,
 * peopleStageUpdated for a new stage, peopleTagsCreated for added tags. A no-op emits nothing.
 * A new stage or agent goes on the timeline, and a hand-over moves open tasks (people.handover.ts).
 */
export async function savePerson(
  trx: Trx,
  accountId: number,
  personId: number,
  before: PersonState,
  after: PersonState,
  at: string,
  emitEvent: EmitEvent = emit,
  change: ChangeContext = BY_HEARTH,
): Promise<boolean> {
  const changed = changedFields(before, after);
  if (changed.length === 0) return false;
  await updatePersonState(trx, accountId, personId, before, after, at);
  await emitEvent(trx, accountId, 'peopleUpdated', [personId]);
  await followPersonChanges(trx, { accountId, personId, at, change }, before, after, emitEvent);
  if (changed.includes('stageId') && after.stageId !== null) {
    await emitEvent(trx, accountId, 'peopleStageUpdated', [personId], {
      stage: await stageName(trx, after.stageId),
    });
  }
  const tags = addedTags(before.tags, after.tags);
  if (tags.length) await emitEvent(trx, accountId, 'peopleTagsCreated', [personId], { tags });
  return true;
}

export async function removePerson(
  trx: Trx,
  auth: AuthUser,
  personId: number,
  emitEvent: EmitEvent = emit,
): Promise<void> {
  await deletePerson(trx, auth.accountId, personId);
  // Interface rule 2: the person's notes, calls and the rest go with them, and only peopleDeleted fires.
  await emitEvent(trx, auth.accountId, 'peopleDeleted', [personId]);
}

/**
 * POST /v1/people: creates a person from a request body, or with `deduplicate` merges the body into
 * the visible person matching one of its emails or phones (lead-style: fills, never wipes).
 */
export async function createOrMergePerson(
  db: Db,
  auth: AuthUser,
  input: PersonInput,
  options: { deduplicate: boolean; at: string; createdAt?: string },
): Promise<{ id: number; created: boolean }> {
  const { accountId } = auth;
  return db.transaction().execute(async (trx) => {
    const incoming = defaultOwnership(
      auth,
      await applyPersonInput(trx, accountId, emptyPersonState(), input),
    );
    await assertMayMoveIntoPond(trx, auth, null, incoming.assignedPondId);
    if (options.deduplicate) {
      const match = await findMatchingPerson(
        trx,
        accountId,
        incoming.emails.map((e) => e.value),
        incoming.phones.map((p) => p.value),
      );
      if (match) await lockPerson(trx, accountId, match.personId);
      const existing = match && (await findVisiblePerson(trx, auth, match.personId));
      if (existing) {
        const before = stateFromRow(existing);
        const after = mergePersonStates(before, incoming);
        await savePerson(trx, accountId, existing.id, before, after, options.at);
        return { id: existing.id, created: false };
      }
    }
    return {
      id: await createPerson(trx, accountId, incoming, {
        // Typed in by a person in the web app, or sent by an integration.
        createdVia: auth.via === 'session' ? 'Manually' : 'API',
        at: options.at,
        createdAt: options.createdAt,
      }),
      created: true,
    };
  });
}

/** PUT /v1/people/:id: only the fields sent change (tags merged with `mergeTags`); 404 if unseen. */
export async function updateVisiblePerson(
  db: Db,
  auth: AuthUser,
  id: number,
  input: PersonInput,
  options: { mergeTags?: boolean; at: () => string; ctx?: AppContext },
): Promise<void> {
  const { accountId } = auth;
  await db.transaction().execute(async (trx) => {
    await lockPerson(trx, accountId, id);
    const row = await findVisiblePerson(trx, auth, id);
    if (!row) throw notFound(`Person ${id}`);
    const before = stateFromRow(row);
    const after = await applyPersonInput(trx, accountId, before, input, {
      mergeTags: options.mergeTags,
    });
    await assertMayMoveIntoPond(trx, auth, before.assignedPondId, after.assignedPondId);
    const change = { actor: { id: auth.userId, name: auth.name }, ctx: options.ctx };
    await savePerson(trx, accountId, id, before, after, options.at(), emit, change);
  });
}

/**
 * DELETE /v1/people/:id: 404 unless the caller sees the person; `authorize` runs after that
 * lookup (an unseen person stays a 404), then the person goes with all their data.
 */
export async function removeVisiblePerson(
  db: Db,
  auth: AuthUser,
  id: number,
  authorize: () => void,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findVisiblePerson(trx, auth, id);
    if (!row) throw notFound(`Person ${id}`);
    authorize();
    await removePerson(trx, auth, row.id);
  });
}
