import { CompiledQuery, type Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { DB } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { insertJsonRows } from '../../platform/db/json-rows.js';
import { deliveryOutcomes } from '../../platform/metrics/registry.js';
import { evaluateWebhookHealth } from './health.js';
import { deactivateInboxAppOf } from './inbox-subscriptions.js';
import type { Outcome } from './lanes.js';
import type { SendResult } from './sender.js';
import './webhooks.tables.js';

export interface LaneWebhook {
  id: number;
  account_id: number;
  system: string;
  url: string;
  failing_since: string | null;
}

export interface DueDelivery {
  id: number;
  attempts: number;
  first_attempt_at: string | null;
  event_uuid: string;
  payload: string;
}

export interface SentDelivery {
  delivery: DueDelivery;
  result: SendResult;
  startedMs: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
/** Attempt rows per INSERT (one JSON parameter, whatever the count). */
const INSERT_CHUNK = 500;

const ATTEMPT_COLUMNS = {
  account_id: 'integer',
  webhook_id: 'integer',
  delivery_id: 'integer',
  attempt: 'integer',
  attempted_at: 'text',
  success: 'integer',
  status_code: 'integer',
  latency_ms: 'integer',
  error: 'text',
  response: 'text',
} as const;

/**
 * Successes of one attempt number, in one statement of one text whatever their count (the ids
 * travel as one array: built by Kysely for each group, this update was a good part of a
 * delivery's CPU). The compare-and-set on attempts and state records each attempt once.
 */
const MARK_DELIVERED: Record<DialectName, string> = {
  postgres: `update webhook_deliveries set attempts = $1::integer + 1,
    first_attempt_at = coalesce(first_attempt_at, $2), state = 'delivered',
    next_attempt_at = $3, finished_at = $3
    where id = any($4::bigint[]) and attempts = $1 and state = 'pending' returning id`,
  sqlite: `update webhook_deliveries set attempts = ? + 1,
    first_attempt_at = coalesce(first_attempt_at, ?), state = 'delivered',
    next_attempt_at = ?, finished_at = ?
    where id in (select value from json_each(?)) and attempts = ? and state = 'pending'
    returning id`,
};

/** MARK_DELIVERED's parameters (better-sqlite3 binds an array to plain `?` only, in order). */
function markDeliveredParameters(
  dialect: DialectName,
  attempts: number,
  firstAttemptAt: string,
  now: string,
  ids: number[],
): unknown[] {
  return dialect === 'postgres'
    ? [attempts, firstAttemptAt, now, ids]
    : [attempts, firstAttemptAt, now, now, JSON.stringify(ids), attempts];
}

/** Retry plan (part 6 rule 2 and the contract): the wait before the next attempt, or null once the window has closed. */
export function nextAttemptAt(
  schedule: number[],
  windowSeconds: number,
  attemptsMade: number,
  firstAttemptMs: number,
  nowMs: number,
): number | null {
  const wait = schedule[Math.min(attemptsMade - 1, schedule.length - 1)] ?? 60;
  const next = nowMs + wait * 1000;
  return next > firstAttemptMs + windowSeconds * 1000 ? null : next;
}

function attemptRow(hook: LaneWebhook, sent: SentDelivery) {
  const { result } = sent;
  return {
    account_id: hook.account_id,
    webhook_id: hook.id,
    delivery_id: sent.delivery.id,
    attempt: sent.delivery.attempts + 1,
    attempted_at: iso(sent.startedMs),
    success: result.success ? (1 as const) : (0 as const),
    status_code: result.statusCode,
    latency_ms: result.latencyMs,
    error: result.error,
    response: result.response,
  };
}

/**
 * Stores a group of a lane's outcomes (in the caller's transaction) and moves the deliveries on.
 * Successes, the usual case, take one UPDATE per attempt number and one INSERT for their attempt
 * rows; failures go one by one, since each has its own retry time and may change the webhook's
 * health. The compare-and-set on `attempts` records each attempt once: 'stop' when a delivery was
 * no longer as this lane read it (the webhook was deleted, or another worker took over).
 */
export async function recordOutcomes(
  ctx: AppContext,
  db: Kysely<DB>,
  hook: LaneWebhook,
  group: SentDelivery[],
): Promise<Outcome> {
  const nowMs = ctx.clock.now();
  const delivered = group.filter((s) => s.result.success);
  const byAttempts = new Map<number, SentDelivery[]>();
  for (const s of delivered)
    byAttempts.set(s.delivery.attempts, [...(byAttempts.get(s.delivery.attempts) ?? []), s]);
  let outcome: Outcome = 'continue';
  for (const [attempts, items] of byAttempts) {
    const updated = await db.executeQuery<{ id: number }>(
      CompiledQuery.raw(
        MARK_DELIVERED[ctx.dialect],
        markDeliveredParameters(
          ctx.dialect,
          attempts,
          iso(items[0].startedMs),
          iso(nowMs),
          items.map((s) => s.delivery.id),
        ),
      ),
    );
    const ids = new Set(updated.rows.map((r) => Number(r.id)));
    if (ids.size < items.length) outcome = 'stop';
    const rows = items.filter((s) => ids.has(s.delivery.id)).map((s) => attemptRow(hook, s));
    for (let i = 0; i < rows.length; i += INSERT_CHUNK)
      await insertJsonRows(
        db,
        ctx.dialect,
        'webhook_attempts',
        ATTEMPT_COLUMNS,
        rows.slice(i, i + INSERT_CHUNK),
      );
    if (ids.size > 0) deliveryOutcomes.inc({ outcome: 'delivered' }, ids.size);
  }
  if (outcome === 'stop') return 'stop';
  for (const sent of group) {
    if (sent.result.success) continue;
    if ((await recordFailure(ctx, db, hook, sent, nowMs)) === 'stop') return 'stop';
  }
  if (delivered.length > 0 && hook.failing_since !== null) return checkHealth(ctx, db, hook, nowMs);
  return 'continue';
}

async function recordFailure(
  ctx: AppContext,
  db: Kysely<DB>,
  hook: LaneWebhook,
  sent: SentDelivery,
  nowMs: number,
): Promise<Outcome> {
  const { config } = ctx;
  const { delivery, result, startedMs } = sent;
  const attempt = delivery.attempts + 1;
  const firstMs = delivery.first_attempt_at ? Date.parse(delivery.first_attempt_at) : startedMs;
  const gone = result.statusCode === 406 || result.statusCode === 410;
  const next = gone
    ? null
    : nextAttemptAt(
        config.webhookRetrySchedule,
        config.webhookRetryWindow,
        attempt,
        firstMs,
        nowMs,
      );
  const state = next === null ? 'abandoned' : 'pending';
  const updated = await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: attempt,
      first_attempt_at: iso(firstMs),
      state,
      next_attempt_at: iso(next ?? nowMs),
      finished_at: state === 'pending' ? null : iso(nowMs),
    })
    .where('id', '=', delivery.id)
    .where('attempts', '=', delivery.attempts)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return 'stop';
  deliveryOutcomes.inc({ outcome: gone ? 'gone' : state === 'pending' ? 'failed' : state });
  await db.insertInto('webhook_attempts').values(attemptRow(hook, sent)).execute();
  if (gone) {
    // Part 6 rule 3: a callback answering 406 or 410 is deleted at once (its deliveries go with it);
    // an inbox app's subscription takes its installation with it.
    const inboxAppId = await deactivateInboxAppOf(db, hook.id, nowMs);
    await db.deleteFrom('webhooks').where('id', '=', hook.id).execute();
    ctx.log.info(
      { webhookId: hook.id, inboxAppId, status: result.statusCode },
      inboxAppId === null
        ? 'webhook deleted: callback answered 406/410'
        : 'inbox app deactivated: its subscription URL answered 406/410',
    );
    return 'stop';
  }
  return checkHealth(ctx, db, hook, nowMs);
}

async function checkHealth(
  ctx: AppContext,
  db: Kysely<DB>,
  hook: LaneWebhook,
  nowMs: number,
): Promise<Outcome> {
  const health = await evaluateWebhookHealth(db, hook, nowMs);
  hook.failing_since = health.failingSince;
  if (!health.disabled) return 'continue';
  const inboxAppId = await deactivateInboxAppOf(db, hook.id, nowMs);
  ctx.log.warn(
    { webhookId: hook.id, inboxAppId },
    'webhook disabled: more than half of its deliveries failed for a week',
  );
  return 'stop';
}
