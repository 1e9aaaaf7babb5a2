import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { notifyAgent } from '../../accounts/notifications/notifications.service.js';
import type { EmitEvent } from '../../accounts/webhooks/outbox.js';
import type { PersonState } from './people.state.js';
import './personChanges.tables.js';

/** Who makes a change to a person: the timeline names them; `ctx` lets the new agent be notified. */
export interface ChangeContext {
  actor: { id: number; name: string } | null;
  /** Given by interactive writes (the API, the web app): the new agent then gets a notification. */
  ctx?: AppContext;
}

/** A change made by Hearth itself (lead routing, claims, imports of matched people). */
export const BY_HEARTH: ChangeContext = { actor: null };

async function namesOf(trx: Trx, table: 'stages' | 'users', ids: (number | null)[]) {
  const wanted = ids.filter((id): id is number => id !== null);
  if (wanted.length === 0) return new Map<number, string>();
  const rows = await trx
    .selectFrom(table)
    .select(['id', 'name'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

async function recordChange(
  trx: Trx,
  row: { accountId: number; personId: number; at: string; change: ChangeContext },
  field: 'stage' | 'assignedUser',
  from: string | null,
  to: string | null,
) {
  await trx
    .insertInto('person_changes')
    .values({
      account_id: row.accountId,
      person_id: row.personId,
      field,
      from_value: from,
      to_value: to,
      user_id: row.change.actor?.id ?? null,
      user_name: row.change.actor?.name ?? 'Hearth',
      created_at: row.at,
    })
    .execute();
}

/** The previous agent's open tasks of this person go to the new agent (tasksUpdated for them). */
async function moveOpenTasks(
  trx: Trx,
  accountId: number,
  personId: number,
  from: number,
  to: number,
  emitEvent: EmitEvent,
) {
  const moved = await trx
    .updateTable('tasks')
    .set({ assigned_user_id: to })
    .where('account_id', '=', accountId)
    .where('person_id', '=', personId)
    .where('assigned_user_id', '=', from)
    .where('is_completed', '=', 0)
    .returning('id')
    .execute();
  await emitEvent(
    trx,
    accountId,
    'tasksUpdated',
    moved.map((t) => t.id),
  );
}

/**
 * What a person's stage or assigned agent changing brings with it (issue 31): a timeline entry
 * for each, and on a hand-over the previous agent's open tasks moved to the new agent, who is
 * notified unless they made the change themselves.
 */
export async function followPersonChanges(
  trx: Trx,
  row: { accountId: number; personId: number; at: string; change: ChangeContext },
  before: PersonState,
  after: PersonState,
  emitEvent: EmitEvent,
): Promise<void> {
  if (before.stageId !== after.stageId) {
    const stages = await namesOf(trx, 'stages', [before.stageId, after.stageId]);
    const name = (id: number | null) => (id === null ? null : (stages.get(id) ?? null));
    await recordChange(trx, row, 'stage', name(before.stageId), name(after.stageId));
  }
  const from = before.assignedUserId;
  const to = after.assignedUserId;
  if (from === to) return;
  const users = await namesOf(trx, 'users', [from, to]);
  const name = (id: number | null) => (id === null ? null : (users.get(id) ?? null));
  await recordChange(trx, row, 'assignedUser', name(from), name(to));
  if (to === null) return;
  if (from !== null) await moveOpenTasks(trx, row.accountId, row.personId, from, to, emitEvent);
  const { ctx, actor } = row.change;
  if (!ctx || actor?.id === to) return;
  const who = actor?.name ?? 'Hearth';
  await notifyAgent(trx, ctx, {
    accountId: row.accountId,
    userId: to,
    personId: row.personId,
    eventId: null,
    kind: 'handOver',
    personName: after.name || [after.firstName, after.lastName].filter(Boolean).join(' '),
    eventType: '',
    source: '',
    message:
      from === null
        ? `Assigned to you by ${who}.`
        : `Handed over to you from ${name(from)} by ${who}.`,
  });
}
