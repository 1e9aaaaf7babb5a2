import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { insertEmEvents } from '../emEvents/emEvents.repo.js';
import { lockPeople, recordEmEvents } from '../emEvents/emEvents.service.js';
import { countEmEvents, EmEventTally } from '../emEvents/emEvents.counts.js';
import { isoSeconds } from '../../platform/time.js';
import type { RecipientStatus } from './emailSending.tables.js';
import type { RecipientRow } from './recipients.queue.js';
import { findSend, senderActor, type SendRow } from './sends.repo.js';

/** What became of one recipient in this round. */
export type Outcome =
  | { kind: 'sent'; note?: string }
  | { kind: 'skipped' | 'dropped' | 'hard-bounce' | 'soft-bounce'; reason: string }
  | { kind: 'retry'; reason: string; delaySeconds: number }
  /** Another worker took the recipient over: nothing to record. */
  | { kind: 'withheld' };

export interface Delivery {
  row: RecipientRow;
  email: string;
  outcome: Outcome;
}

export const BUILT_IN_SYSTEM = 'Hearth';

/** The event type an outcome records (none for skips and retries). */
const EVENT_OF: Partial<Record<Outcome['kind'], string>> = {
  sent: 'delivered',
  dropped: 'dropped',
  'hard-bounce': 'hard-bounce',
  'soft-bounce': 'soft-bounce',
};

async function settle(trx: Trx, d: Delivery, now: number): Promise<boolean> {
  const o = d.outcome;
  if (o.kind === 'withheld') return false;
  const base = { email: d.email, claim: null, locked_until: null };
  const change =
    o.kind === 'retry'
      ? {
          ...base,
          status: 'queued' as RecipientStatus,
          run_at: isoSeconds(now + o.delaySeconds * 1000),
          last_error: o.reason.slice(0, 1000),
        }
      : o.kind === 'sent'
        ? {
            ...base,
            status: 'sent' as RecipientStatus,
            sent_at: isoSeconds(now),
            last_error: o.note ?? null,
          }
        : { ...base, status: o.kind as RecipientStatus, reason: o.reason.slice(0, 1000) };
  const result = await trx
    .updateTable('em_send_recipients')
    .set(change)
    .where('id', '=', d.row.id)
    .where('claim', '=', d.row.claim)
    .where('status', 'in', ['claimed', 'handing'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Closes sends that have no recipient left to work on. */
async function closeFinishedSends(trx: Trx, sendIds: number[], now: number): Promise<void> {
  for (const sendId of sendIds) {
    const open = await trx
      .selectFrom('em_send_recipients')
      .select('id')
      .where('send_id', '=', sendId)
      .where('status', 'in', ['queued', 'claimed', 'handing'])
      .limit(1)
      .executeTakeFirst();
    if (!open)
      await trx
        .updateTable('em_sends')
        .set({ status: 'done', finished_at: isoSeconds(now) })
        .where('id', '=', sendId)
        .where('status', '<>', 'done')
        .execute();
  }
}

/**
 * Records a round's outcomes in one transaction: each recipient's new status (only while its
 * claim holds), `delivered` and `dropped` events, bounces through recordEmEvents (a hard bounce
 * marks the address Bad), and closes finished sends.
 */
export async function recordOutcomes(ctx: AppContext, deliveries: Delivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  const now = ctx.clock.now();
  const sends = new Map<number, SendRow>();
  await ctx.db.transaction().execute(async (trx) => {
    type Recorded = { send: SendRow; d: Delivery; type: string };
    const plain: Recorded[] = [];
    const bounces: Recorded[] = [];
    for (const d of deliveries) {
      if (!(await settle(trx, d, now))) continue;
      const type = EVENT_OF[d.outcome.kind];
      if (!type) continue;
      if (!sends.has(d.row.send_id))
        sends.set(d.row.send_id, (await findSend(trx, d.row.send_id))!);
      const send = sends.get(d.row.send_id)!;
      const event = { send, d, type };
      (type === 'hard-bounce' || type === 'soft-bounce' ? bounces : plain).push(event);
    }
    // Events are inserted more than once below: they are counted once, together, at the end (the
    // order of locks emEvents.counts.ts keeps); the bounces' people are locked first, in order.
    const tally = new EmEventTally();
    await lockPeople(
      trx,
      bounces.map(({ d }) => d.row.person_id),
      ctx.dialect,
    );
    await insertEmEvents(
      trx,
      plain.map(({ send, d, type }) => ({
        account_id: send.account_id,
        campaign_id: send.campaign_id,
        person_id: d.row.person_id,
        user_id: send.user_id,
        type,
        occurred_at: isoSeconds(now),
        recipient: d.email,
        url: '',
        system: BUILT_IN_SYSTEM,
        created_at: isoSeconds(now),
      })),
      tally,
    );
    for (const { send, d, type } of bounces) {
      const auth = await senderActor(trx, send);
      await recordEmEvents(
        trx,
        { auth, system: BUILT_IN_SYSTEM },
        [
          {
            campaignId: send.campaign_id,
            personId: d.row.person_id,
            recipient: d.email,
            type: type as 'hard-bounce',
          },
        ],
        { now, dialect: ctx.dialect, tally },
      );
    }
    await countEmEvents(trx, tally.rows);
    await closeFinishedSends(trx, [...new Set(deliveries.map((d) => d.row.send_id))], now);
  });
}
