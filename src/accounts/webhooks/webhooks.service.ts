import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { isoSeconds } from '../../platform/time.js';
import { DUE_NOW } from './dispatcher.js';
import { storeSigningKey } from './signing-keys.js';
import type { WebhookRow } from './webhooks.presenter.js';
import type { WebhookStatus } from './webhooks.tables.js';
import {
  abandonPending,
  activeWebhooksFor,
  countForEvent,
  findWebhook,
  insertWebhook,
  lockAccount,
  MAX_WEBHOOKS_PER_EVENT,
  queueDeliveries,
  sameWebhook,
  updateWebhook,
} from './webhooks.repo.js';

/** Who registers or changes a webhook: the account, the system and the key deliveries are signed with. */
export interface WebhookOwner {
  accountId: number;
  system: string;
  systemKey: string;
}

interface WebhookTarget {
  event: string;
  url: string;
}

/** No second webhook of the system to the same URL for the same event, and at most two per event. */
async function checkRoom(trx: Trx, owner: WebhookOwner, target: WebhookTarget, exceptId?: number) {
  const { accountId, system } = owner;
  const same = await sameWebhook(trx, accountId, system, target, exceptId);
  if (same) throw conflict(`Webhook ${same.id} already sends ${target.event} to this URL`);
  const count = await countForEvent(trx, accountId, system, target.event, exceptId);
  if (count >= MAX_WEBHOOKS_PER_EVENT) {
    throw badRequest(
      `At most ${MAX_WEBHOOKS_PER_EVENT} webhooks may be registered per event per system; system '${system}' already has ${MAX_WEBHOOKS_PER_EVENT} for ${target.event}`,
    );
  }
}

/** Registers a webhook and remembers the system's signing key, in one transaction. */
export async function registerWebhook(
  ctx: AppContext,
  owner: WebhookOwner,
  target: WebhookTarget,
): Promise<WebhookRow> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, ctx.dialect, owner.accountId);
    const now = isoSeconds(ctx.clock.now());
    await checkRoom(trx, owner, target);
    await storeSigningKey(trx, ctx.config, owner.system, owner.systemKey, now);
    return insertWebhook(trx, owner.accountId, { system: owner.system, ...target, at: now });
  });
}

/**
 * Changes a webhook's event, URL or status (only the fields sent). Disabling it abandons its
 * pending deliveries; setting it back to Active gives it a fresh start against the disabling rule.
 */
export async function changeWebhook(
  ctx: AppContext,
  owner: WebhookOwner,
  id: number,
  change: { event?: string; url?: string; status?: WebhookStatus },
): Promise<WebhookRow> {
  const { accountId, system } = owner;
  return ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, ctx.dialect, accountId);
    const now = isoSeconds(ctx.clock.now());
    const current = await findWebhook(trx, accountId, system, id);
    if (!current) throw notFound(`Webhook ${id}`);
    const next = {
      event: change.event ?? current.event,
      url: change.url ?? current.url,
      status: change.status ?? current.status,
    };
    if (next.event !== current.event || next.url !== current.url)
      await checkRoom(trx, owner, next, current.id);
    await storeSigningKey(trx, ctx.config, system, owner.systemKey, now);
    if (next.event === current.event && next.url === current.url && next.status === current.status)
      return current;
    if (next.status === 'Disabled' && current.status !== 'Disabled')
      await abandonPending(trx, current.id, new Date(ctx.clock.now()).toISOString());
    return updateWebhook(trx, accountId, current.id, {
      ...next,
      at: now,
      reactivated: next.status === 'Active' && current.status !== 'Active',
    });
  });
}

/** Queues an event again for the system's Active webhooks of its kind; returns their ids. */
export async function redeliverEvent(
  ctx: AppContext,
  accountId: number,
  system: string,
  found: { id: number; event: string },
): Promise<number[]> {
  const hooks = await activeWebhooksFor(ctx.db, accountId, system, found.event);
  if (hooks.length === 0)
    throw badRequest(
      `System '${system}' has no Active webhook for ${found.event} to send this event to`,
    );
  const at = new Date(ctx.clock.now()).toISOString();
  const webhookIds = hooks.map((h) => h.id);
  await queueDeliveries(ctx.db, accountId, found.id, webhookIds, at, DUE_NOW);
  return webhookIds;
}
