import type { Static } from '@sinclair/typebox';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { toBool } from '../../platform/http/schemas.js';
import { mayRecordWithoutPerson } from '../../access/visibility.js';
import { normalizePhone } from '../../contacts/people/people.matching.js';
import { personRecords } from '../personRecords.js';
import { requireAccountUser, requirePerson } from '../timeline.shared.js';
import type { CallRow } from './calls.presenter.js';
import type { CallBody, CallListQuery } from './calls.schemas.js';
import './calls.tables.js';

export const calls = personRecords({
  table: 'calls',
  label: 'Call',
  events: { created: 'callsCreated', updated: 'callsUpdated', deleted: 'callsDeleted' },
  sorts: { duration: 'calls.duration' },
});

/** The caller's calls with the list's filters (personId 0: calls of unknown callers). */
export function callsList(db: DbOrTrx, auth: AuthUser, q: Static<typeof CallListQuery>) {
  let query = calls.visible(db, auth);
  if (q.personId !== undefined)
    query =
      q.personId === 0
        ? query.where('calls.person_id', 'is', null)
        : query.where('calls.person_id', '=', q.personId);
  if (q.phone) query = query.where('calls.normalized_phone', '=', normalizePhone(q.phone));
  if (q.system) query = query.where('calls.system', '=', q.system);
  if (q.userId !== undefined) query = query.where('calls.user_id', '=', q.userId);
  return query;
}

type Body = Static<typeof CallBody>;

/** A call may name no person (an unknown caller) only for those who will see it afterwards. */
async function callPerson(trx: Trx, auth: AuthUser, personId: number | undefined) {
  if (personId) return requirePerson(trx, auth, personId);
  if (!mayRecordWithoutPerson(auth)) await requirePerson(trx, auth, undefined);
  return null;
}

export async function newCallValues(trx: Trx, auth: AuthUser, b: Body, system: string) {
  const personId = await callPerson(trx, auth, b.personId);
  const userId = b.userId === undefined ? auth.userId : b.userId;
  if (userId !== null) await requireAccountUser(trx, auth.accountId, userId);
  const phone = b.phone ?? (toBool(b.isIncoming) ? b.fromNumber : b.toNumber) ?? '';
  return {
    person_id: personId,
    phone,
    normalized_phone: normalizePhone(phone),
    is_incoming: toBool(b.isIncoming) ? 1 : 0,
    outcome: b.outcome ?? null,
    duration: b.duration ?? 0,
    note: b.note ?? '',
    to_number: b.toNumber ?? '',
    from_number: b.fromNumber ?? '',
    user_id: userId,
    recording_url: b.recordingUrl ?? '',
    system,
  };
}

/** Only the fields sent change. */
export async function changedCallValues(trx: Trx, auth: AuthUser, row: CallRow, b: Body) {
  const personId =
    b.personId === undefined ? row.person_id : await callPerson(trx, auth, b.personId);
  if (b.userId) await requireAccountUser(trx, auth.accountId, b.userId);
  const phone = b.phone ?? row.phone;
  return {
    person_id: personId,
    phone,
    normalized_phone: normalizePhone(phone),
    is_incoming: b.isIncoming === undefined ? row.is_incoming : toBool(b.isIncoming) ? 1 : 0,
    outcome: b.outcome === undefined ? row.outcome : b.outcome,
    duration: b.duration ?? row.duration,
    note: b.note ?? row.note,
    to_number: b.toNumber ?? row.to_number,
    from_number: b.fromNumber ?? row.from_number,
    user_id: b.userId === undefined ? row.user_id : b.userId,
    recording_url: b.recordingUrl ?? row.recording_url,
  };
}
