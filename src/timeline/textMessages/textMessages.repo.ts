import type { Static } from '@sinclair/typebox';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { toBool } from '../../platform/http/schemas.js';
import { personRecords } from '../personRecords.js';
import { requirePerson } from '../timeline.shared.js';
import type { TextMessageRow } from './textMessages.presenter.js';
import type {
  TextMessageCreateBody,
  TextMessageListQuery,
  TextMessageUpdateBody,
} from './textMessages.schemas.js';
import './textMessages.tables.js';

/** Logged text messages: Hearth records them on the timeline, it sends no SMS. */
export const textMessages = personRecords({
  table: 'text_messages',
  label: 'Text message',
  events: {
    created: 'textMessagesCreated',
    updated: 'textMessagesUpdated',
    deleted: 'textMessagesDeleted',
  },
});

export function textMessagesList(
  db: DbOrTrx,
  auth: AuthUser,
  q: Static<typeof TextMessageListQuery>,
) {
  let query = textMessages.visible(db, auth);
  if (q.personId !== undefined) query = query.where('text_messages.person_id', '=', q.personId);
  if (q.system) query = query.where('text_messages.system', '=', q.system);
  return query;
}

export async function newTextMessageValues(
  trx: Trx,
  auth: AuthUser,
  b: Static<typeof TextMessageCreateBody>,
  system: string,
) {
  return {
    person_id: await requirePerson(trx, auth, b.personId),
    message: b.message,
    to_number: b.toNumber ?? '',
    from_number: b.fromNumber ?? '',
    is_incoming: toBool(b.isIncoming) ? 1 : 0,
    user_id: auth.userId,
    system,
  };
}

/** Only the fields sent change. */
export async function changedTextMessageValues(
  trx: Trx,
  auth: AuthUser,
  row: TextMessageRow,
  b: Static<typeof TextMessageUpdateBody>,
) {
  if (b.personId !== undefined && b.personId !== row.person_id)
    await requirePerson(trx, auth, b.personId);
  return {
    person_id: b.personId ?? row.person_id,
    message: b.message ?? row.message,
    to_number: b.toNumber ?? row.to_number,
    from_number: b.fromNumber ?? row.from_number,
    is_incoming: b.isIncoming === undefined ? row.is_incoming : toBool(b.isIncoming) ? 1 : 0,
  };
}
