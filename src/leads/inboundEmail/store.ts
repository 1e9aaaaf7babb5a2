import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { enqueueJob } from '../../platform/jobs/queue.js';
import { isoSeconds } from '../../platform/time.js';
import type { AddressOwner } from '../../accounts/users/leadAddresses.js';
import { messageKey, printable, rawHeader } from './mime.js';

export const PARSE_JOB = 'inboundEmailParse';

/** A received message's envelope: the lead addresses it was sent to, with their owners. */
export interface Delivery {
  mailFrom: string;
  recipients: { address: string; owner: AddressOwner }[];
}

/**
 * One recipient per account: a user's address before the account's (its lead is assigned to the
 * user), the first of each kind as sent.
 */
export function recipientPerAccount(delivery: Delivery): Delivery['recipients'] {
  const chosen = new Map<number, Delivery['recipients'][number]>();
  for (const recipient of delivery.recipients) {
    const held = chosen.get(recipient.owner.accountId);
    if (!held || (held.owner.userId === null && recipient.owner.userId !== null))
      chosen.set(recipient.owner.accountId, recipient);
  }
  return [...chosen.values()];
}

/** The stored row of a received message for one account (headers kept undecoded until parsed). */
export function inboundRow(
  raw: Buffer,
  mailFrom: string,
  rcptTo: string,
  owner: { accountId: number; userId: number | null },
  receivedAt: string,
  historic?: { historicId: number; seq: number },
) {
  return {
    account_id: owner.accountId,
    user_id: owner.userId,
    historic_id: historic?.historicId ?? null,
    seq: historic?.seq ?? null,
    message_key: messageKey(raw),
    received_at: receivedAt,
    mail_from: printable(rawHeader(raw, 'from') ?? mailFrom).slice(0, 500),
    rcpt_to: printable(rcptTo).slice(0, 320),
    subject: rawHeader(raw, 'subject') ?? '',
    raw,
    status: 'received' as const,
    parser: null,
    person_id: null,
    event_id: null,
    error: null,
    parsed_at: null,
  };
}

/** Inserts the message unless the account has it (same Message-ID); its id, or null for a repeat. */
export async function insertInbound(
  trx: Trx,
  row: {
    accountId: number;
    userId: number | null;
    historicId?: number;
    seq?: number;
    raw: Buffer;
    mailFrom: string;
    rcptTo: string;
    receivedAt: string;
  },
): Promise<number | null> {
  const historic =
    row.historicId === undefined ? undefined : { historicId: row.historicId, seq: row.seq ?? 0 };
  const inserted = await trx
    .insertInto('inbound_emails')
    .values(inboundRow(row.raw, row.mailFrom, row.rcptTo, row, row.receivedAt, historic))
    .onConflict((oc) => oc.columns(['account_id', 'message_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? null;
}

/**
 * Keeps a received message for each account it was sent to, with its parse job, before the
 * sender hears it was taken: a crash after this loses nothing, and any worker parses it.
 * Answers the ids stored (a repeated Message-ID stores nothing).
 */
export async function storeMessage(
  ctx: AppContext,
  raw: Buffer,
  delivery: Delivery,
): Promise<number[]> {
  const receivedAt = isoSeconds(ctx.clock.now());
  return ctx.db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (const { address, owner } of recipientPerAccount(delivery)) {
      const id = await insertInbound(trx, {
        accountId: owner.accountId,
        userId: owner.userId,
        raw,
        mailFrom: delivery.mailFrom,
        rcptTo: address,
        receivedAt,
      });
      if (id === null) continue;
      ids.push(id);
      await enqueueJob(ctx, trx, {
        accountId: owner.accountId,
        kind: PARSE_JOB,
        payload: { inboundEmailId: id },
      });
    }
    return ids;
  });
}
