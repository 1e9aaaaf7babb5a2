import type { Trx } from '../../platform/db/database.js';
import { insertRows } from '../../platform/db/reusable-query.js';
import { nextInRotation } from '../../leads/groups/groups.repo.js';
import { applyPersonInput, type PersonInput } from '../../contacts/people/people.input.js';
import { findPersonInAccount, lockPerson } from '../../contacts/people/people.repo.js';
import { savePerson } from '../../contacts/people/people.service.js';
import { stateFromRow } from '../../contacts/people/people.state.js';
import type { EmitEvent } from '../../accounts/webhooks/outbox.js';
import { isoSeconds } from '../../platform/time.js';
import type { ActionInput } from './automations.schemas.js';

type PersonAction = Extract<
  ActionInput,
  { type: 'addTag' | 'removeTag' | 'changeStage' | 'assign' }
>;

/**
 * The loop rule: the events an automation's action causes are marked with the automation, whose
 * trigger then skips them (triggers.ts). Other automations still see them.
 */
export function emitCausedBy(automationId: number, nowMs: number): EmitEvent {
  return async (trx, accountId, event, resourceIds, data) => {
    if (resourceIds.length === 0) return;
    await insertRows(trx, 'outbox', [
      {
        account_id: accountId,
        event,
        resource_ids: JSON.stringify(resourceIds),
        data: data === undefined ? null : JSON.stringify(data),
        created_at: isoSeconds(nowMs),
        dispatched_at: null,
        automation_id: automationId,
      },
    ]);
  };
}

async function personInput(
  trx: Trx,
  accountId: number,
  action: PersonAction,
  tags: string[],
): Promise<PersonInput | null> {
  switch (action.type) {
    case 'addTag':
      return { tags: [...tags, action.tag] };
    case 'removeTag': {
      const gone = action.tag.toLowerCase();
      return { tags: tags.filter((t) => t.toLowerCase() !== gone) };
    }
    case 'changeStage':
      return { stage: action.stage };
    case 'assign': {
      if (action.pondId !== undefined) return { assignedPondId: action.pondId };
      if (action.groupId !== undefined) {
        const userId = await nextInRotation(trx, accountId, action.groupId);
        return userId === null ? null : { assignedUserId: userId };
      }
      return { assignedUserId: action.userId! };
    }
  }
}

/**
 * Tags, stage and assignment: the person's state changed as PUT /v1/people changes it, with its
 * events (marked as this automation's). A name that no longer resolves (a deleted stage) throws
 * the API's 400, which the engine logs and skips.
 */
export async function changePerson(
  trx: Trx,
  run: { account_id: number; person_id: number; automation_id: number },
  action: PersonAction,
  nowMs: number,
): Promise<void> {
  await lockPerson(trx, run.account_id, run.person_id);
  const row = await findPersonInAccount(trx, run.account_id, run.person_id);
  if (!row) return;
  const before = stateFromRow(row);
  const input = await personInput(trx, run.account_id, action, before.tags);
  if (input === null) return;
  const after = await applyPersonInput(trx, run.account_id, before, input);
  await savePerson(
    trx,
    run.account_id,
    run.person_id,
    before,
    after,
    isoSeconds(nowMs),
    emitCausedBy(run.automation_id, nowMs),
  );
}
