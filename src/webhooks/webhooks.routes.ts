import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Api, RouteOptions } from '../http/route-types.js';
import type { AppContext } from '../context.js';
import type { DbOrTrx } from '../db/database.js';
import { Gate } from '../access/gates.js';
import { requireSystem } from '../http/system.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { Type } from '@sinclair/typebox';
import { IdParams, responses, SystemField } from '../http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../http/pagination.js';
import { isoSeconds } from '../time.js';
import { EVENT_NAMES, isEventName } from './event-names.js';
import { validateCallbackUrl } from './callback-url.js';
import { DUE_NOW } from './dispatcher.js';
import { storeSigningKey } from './signing-keys.js';
import {
  type AttemptRow,
  presentAttempt,
  presentWebhook,
  type WebhookRow,
} from './webhooks.presenter.js';
import {
  abandonPending,
  attemptsQuery,
  countForEvent,
  findEvent,
  findWebhook,
  insertWebhook,
  MAX_WEBHOOKS_PER_EVENT,
  updateWebhook,
  webhooksOfSystem,
} from './webhooks.repo.js';
import {
  Attempt,
  AttemptsQuery,
  CreateWebhookBody,
  EventIdParams,
  RedeliverResult,
  SystemQuery,
  UpdateWebhookBody,
  Webhook,
  WebhookEvent,
  WebhookListQuery,
} from './webhooks.schemas.js';

const tags = ['webhooks'];

function checkEvent(event: string): void {
  if (!isEventName(event))
    throw badRequest(`Unknown event '${event}'; event names: ${EVENT_NAMES.join(', ')}`);
}

/**
 * Deliveries are signed with the system's key, so creating or changing a webhook needs the key
 * itself, proven against the registered system (X-System-Key).
 */
function requireSystemKey(request: FastifyRequest, system: string): string {
  const header = request.headers['x-system-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !request.system.verified) {
    throw forbidden(
      `Registering or changing a webhook requires the X-System-Key of system '${system}': deliveries are signed with it. ` +
        (key ? 'The key sent does not match that system.' : 'No X-System-Key header was sent.'),
    );
  }
  return key;
}

/** Serialises the per-event limit check on PostgreSQL (SQLite runs one write transaction at a time). */
async function lockAccount(ctx: AppContext, trx: DbOrTrx, accountId: number): Promise<void> {
  if (ctx.dialect === 'postgres')
    await sql`select id from accounts where id = ${accountId} for update`.execute(trx);
}

async function checkRoom(
  trx: DbOrTrx,
  accountId: number,
  system: string,
  event: string,
  url: string,
  exceptId?: number,
): Promise<void> {
  const same = await webhooksOfSystem(trx, accountId, system)
    .where('event', '=', event)
    .where('url', '=', url)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (same) throw conflict(`Webhook ${same.id} already sends ${event} to this URL`);
  if ((await countForEvent(trx, accountId, system, event, exceptId)) >= MAX_WEBHOOKS_PER_EVENT) {
    throw badRequest(
      `At most ${MAX_WEBHOOKS_PER_EVENT} webhooks may be registered per event per system; system '${system}' already has ${MAX_WEBHOOKS_PER_EVENT} for ${event}`,
    );
  }
}

export const webhookRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db, config } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const load = async (request: FastifyRequest, system: string, id: number): Promise<WebhookRow> => {
    const row = await findWebhook(db, request.auth.accountId, system, id);
    if (!row) throw notFound(`Webhook ${id}`);
    return row;
  };

  app.get(
    '/v1/webhooks',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary: "List the calling system's webhooks (Owner; X-System required)",
        querystring: WebhookListQuery,
        response: responses({ 200: ListEnvelope('webhooks', Webhook) }),
      },
    },
    async (request) => {
      const system = requireSystem(request);
      const { event, status } = request.query;
      if (event !== undefined) checkEvent(event);
      let query = webhooksOfSystem(db, request.auth.accountId, system);
      if (event !== undefined) query = query.where('event', '=', event);
      if (status !== undefined) query = query.where('status', '=', status);
      const page = await paginate<WebhookRow>(request, {
        collection: 'webhooks',
        query,
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'id'),
        idExpression: 'id',
        publicUrl: config.publicUrl,
      });
      return { _metadata: page.metadata, webhooks: page.rows.map(presentWebhook) };
    },
  );

  app.post(
    '/v1/webhooks',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary: 'Register a webhook (Owner; X-System and X-System-Key required)',
        querystring: SystemQuery,
        body: CreateWebhookBody,
        response: responses({ 201: Webhook }),
      },
    },
    async (request, reply) => {
      const system = requireSystem(request);
      const systemKey = requireSystemKey(request, system);
      const { event } = request.body;
      checkEvent(event);
      const url = await validateCallbackUrl(request.body.url, {
        allowPrivate: config.webhookAllowPrivate,
      });
      const accountId = request.auth.accountId;
      const row = await db.transaction().execute(async (trx) => {
        await lockAccount(ctx, trx, accountId);
        await checkRoom(trx, accountId, system, event, url);
        await storeSigningKey(trx, config, system, systemKey, now());
        return insertWebhook(trx, accountId, { system, event, url, at: now() });
      });
      return reply.code(201).send(presentWebhook(row));
    },
  );

  app.get(
    '/v1/webhooks/:id',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary: 'Get a webhook (Owner; X-System required)',
        params: IdParams,
        querystring: SystemQuery,
        response: responses({ 200: Webhook }),
      },
    },
    async (request) =>
      presentWebhook(await load(request, requireSystem(request), request.params.id)),
  );

  app.put(
    '/v1/webhooks/:id',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary:
          'Change a webhook, or set it back to Active (Owner; X-System and X-System-Key required)',
        params: IdParams,
        querystring: SystemQuery,
        body: UpdateWebhookBody,
        response: responses({ 200: Webhook }),
      },
    },
    async (request) => {
      const system = requireSystem(request);
      const systemKey = requireSystemKey(request, system);
      const body = request.body;
      if (body.event !== undefined) checkEvent(body.event);
      const url =
        body.url === undefined
          ? undefined
          : await validateCallbackUrl(body.url, { allowPrivate: config.webhookAllowPrivate });
      const accountId = request.auth.accountId;
      const row = await db.transaction().execute(async (trx) => {
        await lockAccount(ctx, trx, accountId);
        const current = await findWebhook(trx, accountId, system, request.params.id);
        if (!current) throw notFound(`Webhook ${request.params.id}`);
        const next = {
          event: body.event ?? current.event,
          url: url ?? current.url,
          status: body.status ?? current.status,
        };
        if (next.event !== current.event || next.url !== current.url)
          await checkRoom(trx, accountId, system, next.event, next.url, current.id);
        await storeSigningKey(trx, config, system, systemKey, now());
        if (
          next.event === current.event &&
          next.url === current.url &&
          next.status === current.status
        )
          return current;
        if (next.status === 'Disabled' && current.status !== 'Disabled')
          await abandonPending(trx, current.id, new Date(ctx.clock.now()).toISOString());
        return updateWebhook(trx, accountId, current.id, {
          ...next,
          at: now(),
          reactivated: next.status === 'Active' && current.status !== 'Active',
        });
      });
      return presentWebhook(row);
    },
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary: 'Unregister a webhook (Owner; X-System required)',
        params: IdParams,
        querystring: SystemQuery,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      const system = requireSystem(request);
      const row = await load(request, system, request.params.id);
      await db
        .deleteFrom('webhooks')
        .where('account_id', '=', request.auth.accountId)
        .where('id', '=', row.id)
        .execute();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/webhooks/:id/attempts',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary: 'Recent delivery attempts of a webhook, newest first (Owner; X-System required)',
        params: IdParams,
        querystring: AttemptsQuery,
        response: responses({ 200: ListEnvelope('attempts', Attempt) }),
      },
    },
    async (request) => {
      const system = requireSystem(request);
      const hook = await load(request, system, request.params.id);
      const page = await paginate<AttemptRow>(request, {
        collection: 'attempts',
        query: attemptsQuery(db, request.auth.accountId, hook.id),
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'a.id'),
        idExpression: 'a.id',
        publicUrl: config.publicUrl,
      });
      return { _metadata: page.metadata, attempts: page.rows.map(presentAttempt) };
    },
  );

  app.get(
    '/v1/webhookEvents/:id',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary: 'Get a webhook event as it was delivered, for at least 30 days (Owner)',
        params: EventIdParams,
        querystring: SystemQuery,
        response: responses({ 200: WebhookEvent }),
      },
    },
    async (request) => {
      const found = await findEvent(db, request.auth.accountId, request.params.id);
      if (!found) throw notFound(`Webhook event ${request.params.id}`);
      return JSON.parse(found.payload);
    },
  );

  app.post(
    '/v1/webhookEvents/:id/redeliver',
    {
      config: { gate: Gate.owner },
      schema: {
        tags,
        summary:
          "Send an event again to the calling system's Active webhooks for it (Owner; X-System required)",
        params: EventIdParams,
        querystring: SystemQuery,
        body: Type.Union([
          Type.Null(),
          Type.Object({ ...SystemField }, { additionalProperties: false }),
        ]),
        response: responses({ 202: RedeliverResult }),
      },
    },
    async (request, reply) => {
      const system = requireSystem(request);
      const accountId = request.auth.accountId;
      const found = await findEvent(db, accountId, request.params.id);
      if (!found) throw notFound(`Webhook event ${request.params.id}`);
      const hooks = await webhooksOfSystem(db, accountId, system)
        .where('event', '=', found.event)
        .where('status', '=', 'Active')
        .execute();
      if (hooks.length === 0)
        throw badRequest(
          `System '${system}' has no Active webhook for ${found.event} to send this event to`,
        );
      const at = new Date(ctx.clock.now()).toISOString();
      await db
        .insertInto('webhook_deliveries')
        .values(
          hooks.map((h) => ({
            account_id: accountId,
            webhook_id: h.id,
            event_id: found.id,
            state: 'pending' as const,
            next_attempt_at: DUE_NOW,
            created_at: at,
          })),
        )
        .execute();
      return reply
        .code(202)
        .send({ eventId: request.params.id.toLowerCase(), webhookIds: hooks.map((h) => h.id) });
    },
  );
};
