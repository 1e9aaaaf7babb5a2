import { sql } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../accounts/auth/authenticate.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { assertGate, Gate } from '../../access/gates.js';
import { findVisiblePerson, lockPerson } from './people.repo.js';
import { removePerson, savePerson } from './people.service.js';
import { mergePersonStates, stateFromRow } from './people.state.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { isoSeconds } from '../../platform/time.js';
import { touchLastActivity } from './people.activity.js';

/** The most people one merge takes in besides the kept one. */
export const MAX_MERGED = 50;

/** Records of a person that move to the kept person as they are (no unique key on the person). */
const MOVED = [
  'notes',
  'calls',
  'text_messages',
  'emails',
  'tasks',
  'appointment_invitees',
  'lead_events',
  'person_attachments',
  'people_relationships',
  'inbox_conversations',
  'notifications',
  'lead_identity_keys',
  'person_changes',
  'action_plans_people',
] as const;

/**
 * Records with a unique key on the person: a row moves unless the kept person already has its
 * twin (a deal both are on, the same social profile); the twin stays and goes with the merged person.
 */
const MOVED_UNLESS_TWIN: { table: string; key: string[]; where?: string }[] = [
  { table: 'deal_people', key: ['deal_id'] },
  { table: 'person_social_profiles', key: ['network', 'url'] },
  { table: 'import_people', key: ['import_id'] },
  { table: 'lead_offers', key: [], where: `status <> 'open'` },
];

async function moveRecords(trx: Trx, accountId: number, keepId: number, fromId: number) {
  for (const table of MOVED) {
    // A second active run of the same action plan would break its unique key: that run stays.
    const twin =
      table === 'action_plans_people'
        ? sql` and not (status in ('Running', 'Paused') and exists (select 1 from action_plans_people k
            where k.person_id = ${keepId} and k.action_plan_id = action_plans_people.action_plan_id
            and k.status in ('Running', 'Paused')))`
        : sql``;
    await sql`update ${sql.table(table)} set person_id = ${keepId}
      where account_id = ${accountId} and person_id = ${fromId}${twin}`.execute(trx);
  }
  for (const { table, key, where } of MOVED_UNLESS_TWIN) {
    const account = table === 'import_people' ? sql`` : sql` and account_id = ${accountId}`;
    const same = key.map((k) => sql` and k.${sql.ref(k)} = ${sql.table(table)}.${sql.ref(k)}`);
    const twin = key.length
      ? sql` and not exists (select 1 from ${sql.table(table)} k where k.person_id = ${keepId}${sql.join(same, sql``)})`
      : sql``;
    await sql`update ${sql.table(table)} set person_id = ${keepId}
      where person_id = ${fromId}${account}${twin}${where ? sql` and ${sql.raw(where)}` : sql``}`.execute(
      trx,
    );
  }
}

function checkedIds(keepId: number, personIds: number[]): number[] {
  const ids = [...new Set(personIds)];
  if (ids.length === 0) throw badRequest("'personIds' must name at least one person to merge");
  if (ids.length > MAX_MERGED)
    throw badRequest(`'personIds' may name at most ${MAX_MERGED} people at once`);
  if (ids.includes(keepId))
    throw badRequest(`'personIds' must not include the person kept (${keepId})`);
  return ids;
}

/**
 * POST /v1/people/:id/merge: the others' emails, phones, addresses and tags join the kept person
 * (filling empty fields, never replacing), their timeline, deals and other records move to the
 * kept person, and the others are deleted, all in one transaction: peopleDeleted for each of them,
 * then peopleUpdated (and stage, tag events) for the kept person. 404 unless the caller sees all.
 */
export async function mergePeople(
  ctx: AppContext,
  auth: AuthUser,
  keepId: number,
  personIds: number[],
): Promise<void> {
  const others = checkedIds(keepId, personIds);
  const { accountId } = auth;
  await ctx.db.transaction().execute(async (trx) => {
    // Locks in id order, so that two merges of the same people wait for each other, not deadlock.
    for (const id of [keepId, ...others].sort((a, b) => a - b))
      await lockPerson(trx, accountId, id);
    const rows = [];
    for (const id of [keepId, ...others]) {
      const row = await findVisiblePerson(trx, auth, id);
      if (!row) throw notFound(`Person ${id}`);
      rows.push(row);
    }
    assertGate(Gate.personDeleter, auth);
    const before = stateFromRow(rows[0]);
    const after = rows.slice(1).map(stateFromRow).reduce(mergePersonStates, before);
    for (const row of rows.slice(1)) {
      await moveRecords(trx, accountId, keepId, row.id);
      if (row.last_activity) await touchLastActivity(trx, accountId, keepId, row.last_activity);
      await removePerson(trx, auth, row.id);
    }
    const at = isoSeconds(ctx.clock.now());
    const change = { actor: { id: auth.userId, name: auth.name }, ctx };
    const saved = await savePerson(trx, accountId, keepId, before, after, at, emit, change);
    // The timeline moved even when no field changed: the kept person is updated all the same.
    if (!saved) await emit(trx, accountId, 'peopleUpdated', [keepId]);
  });
}
