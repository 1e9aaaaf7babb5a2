import type { Trx } from '../../platform/db/database.js';
import { findPersonInAccount } from './people.repo.js';
import { savePerson } from './people.service.js';
import { stateFromRow } from './people.state.js';

/**
 * An outgoing call, text message or email sets the person's `contacted` (issue 31), in the
 * record's own transaction; peopleUpdated fires only when it was not set yet.
 */
export async function markContactedByOutgoing(
  trx: Trx,
  accountId: number,
  record: { person_id: number | null; is_incoming: number },
  at: string,
): Promise<void> {
  if (record.is_incoming || record.person_id === null) return;
  const row = await findPersonInAccount(trx, accountId, record.person_id);
  if (!row || row.contacted) return;
  const before = stateFromRow(row);
  await savePerson(trx, accountId, row.id, before, { ...before, contacted: 1 }, at);
}
