import { Type } from '@sinclair/typebox';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import { notFound } from '../../platform/http/errors.js';
import { MAX_ID, SystemField } from '../../platform/http/schemas.js';
import { assertPersonVisible } from '../../access/visibility.js';
import { loadMergeData } from './merge-data.js';
import type { MergeData } from './merge-fields.js';

const Recipient = (address: 'email' | 'phone') =>
  Type.Object(
    {
      [address]: Type.Optional(Type.String({ maxLength: 320 })),
      name: Type.Optional(Type.String({ maxLength: 300 })),
    },
    { additionalProperties: false },
  );

/**
 * `recipients` of a merge: `to` names who the message goes to; their first names fill
 * %contact_rels_first_name% ("Bob, Alice and Carol"). `from`, `cc` and `bcc` are accepted and,
 * as in the real API, unused.
 */
export const Recipients = (address: 'email' | 'phone') =>
  Type.Object(
    {
      to: Type.Optional(Type.Array(Recipient(address), { maxItems: 100 })),
      from: Type.Optional(Type.Unknown()),
      cc: Type.Optional(Type.Unknown()),
      bcc: Type.Optional(Type.Unknown()),
    },
    { additionalProperties: false },
  );

export const mergeBodyFields = {
  templateId: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  ...SystemField,
};

export const PersonIdField = Type.Integer({
  minimum: 1,
  maximum: MAX_ID,
  description:
    'Apply merge fields for this person and their assigned agent (or you, when nobody is assigned)',
});

const firstName = (name: string | undefined) => (name ?? '').trim().split(/\s+/)[0] ?? '';

/** The merge data of a person the caller sees (404 otherwise), with the recipients' names. */
export async function mergeDataFor(
  db: DbOrTrx,
  auth: AuthUser,
  personId: number,
  recipients?: { to?: { name?: string }[] },
): Promise<MergeData> {
  await assertPersonVisible(db, auth, personId);
  const merge = await loadMergeData(db, auth.accountId, personId, auth.userId);
  if (!merge) throw notFound(`Person ${personId}`);
  const named = (recipients?.to ?? []).map((r) => firstName(r.name)).filter(Boolean);
  return named.length ? { ...merge.data, recipientFirstNames: named } : merge.data;
}
