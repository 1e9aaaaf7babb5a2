import type { FastifyRequest } from 'fastify';
import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { requireSystem } from '../systems/system-identification.js';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import { Type } from '@sinclair/typebox';
import { IdParams, responses, SystemField } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { EVENT_NAMES, isEventName } from './event-names.js';
import { validateCallbackUrl } from './callback-url.js';
import {
  type AttemptRow,
  presentAttempt,
  presentWebhook,
  type WebhookRow,
} from './webhooks.presenter.js';
import {
  attemptsQuery,
  deleteWebhook,
  findEvent,
  findWebhook,
  webhooksList,
} from './webhooks.repo.js';
import { changeWebhook, redeliverEvent, registerWebhook } from './webhooks.service.js';
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

export const webhookRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db, config } = ctx;
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
      const page = await paginate<WebhookRow>(request, {
        collection: 'webhooks',
        query: webhooksList(db, request.auth.accountId, system, { event, status }),
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
      const owner = { accountId: request.auth.accountId, system, systemKey };
      const row = await registerWebhook(ctx, owner, { event, url });
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
      const owner = { accountId: request.auth.accountId, system, systemKey };
      const change = { event: body.event, url, status: body.status };
      return presentWebhook(await changeWebhook(ctx, owner, request.params.id, change));
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
      await deleteWebhook(db, request.auth.accountId, row.id);
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
      const webhookIds = await redeliverEvent(ctx, accountId, system, found);
      return reply.code(202).send({ eventId: request.params.id.toLowerCase(), webhookIds });
    },
  );
};
