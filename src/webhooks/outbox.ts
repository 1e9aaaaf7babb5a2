import type { Trx } from '../db/database.js';
import type { EventName } from './event-names.js';
import { isoSeconds } from '../time.js';
import { insertRows } from '../db/reusable-query.js';

/**
 * Records a change for webhook delivery. It takes a transaction so that the event row commits
 * with the change it describes: none is lost on a crash, none is sent for a rolled-back change.
 */
export async function emit(
  trx: Trx,
  accountId: number,
  event: EventName,
  resourceIds: number[],
  data?: Record<string, unknown>,
  now: number = Date.now(),
): Promise<void> {
  if (resourceIds.length === 0) return;
  await insertRows(trx, 'outbox', [{
    account_id: accountId,
    event,
    resource_ids: JSON.stringify(resourceIds),
    data: data === undefined ? null : JSON.stringify(data),
    created_at: isoSeconds(now),
    dispatched_at: null,
  }]);
}
