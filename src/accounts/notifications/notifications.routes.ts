import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { IdParams, responses, toBool } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import {
  MarkAllReadBody,
  Notification,
  NotificationListQuery,
  NotificationUpdateBody,
} from './notifications.schemas.js';
import { presentNotification } from './notifications.presenter.js';
import { NotificationStreams } from './notifications.stream.js';
import {
  findMyNotification,
  markAllRead,
  myNotificationsList,
  type NotificationRow,
  setReadAt,
} from './notifications.repo.js';

const tags = ['notifications'];

/** /v1/notifications: the caller's own notifications about their leads. Every role has its own. */
export const notificationsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const streams = new NotificationStreams(ctx);
  // Before the server stops taking connections: an open stream would keep it from closing.
  app.addHook('preClose', async () => streams.closeAll());

  app.get(
    '/v1/notifications/stream',
    {
      schema: {
        tags,
        summary: 'Your unread count as server-sent events, sent again when it changes',
        description:
          'An event stream (text/event-stream) of `unread` events, each `{"unread": N, "latest": id}` ' +
          '(`latest`: the newest unread notification, or null): one at once, then one whenever ' +
          'either changes (a new notification shows within 3 seconds). The stream ends after 10 ' +
          'minutes; EventSource opens a new one.',
        response: responses({
          200: Type.String({ description: 'text/event-stream of unread events' }),
        }),
      },
    },
    (request, reply) => streams.serve(request, reply),
  );

  app.get(
    '/v1/notifications',
    {
      schema: {
        tags,
        summary: 'Your notifications, newest first',
        querystring: NotificationListQuery,
        response: responses({ 200: ListEnvelope('notifications', Notification) }),
      },
    },
    async (request) => {
      const q = request.query;
      const { accountId, userId } = request.auth;
      const filters = { unread: toBool(q.unread), personId: q.personId };
      const page = await paginate<NotificationRow>(request, {
        collection: 'notifications',
        query: myNotificationsList(db, accountId, userId, filters),
        page: readPage(q),
        sort: { name: '-id', expression: 'id', descending: true },
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, notifications: page.rows.map(presentNotification) };
    },
  );

  app.get(
    '/v1/notifications/:id',
    {
      schema: {
        tags,
        summary: 'Get one of your notifications',
        params: IdParams,
        response: responses({ 200: Notification }),
      },
    },
    async (request) => {
      const { accountId, userId } = request.auth;
      const row = await findMyNotification(db, accountId, userId, request.params.id);
      if (!row) throw notFound(`Notification ${request.params.id}`);
      return presentNotification(row);
    },
  );

  app.put(
    '/v1/notifications/:id',
    {
      schema: {
        tags,
        summary: 'Mark one of your notifications read or unread',
        params: IdParams,
        body: NotificationUpdateBody,
        response: responses({ 200: Notification }),
      },
    },
    async (request) => {
      if (!request.body) throw badRequest('Send {"read": true} or {"read": false}');
      const read = toBool(request.body.read);
      const { accountId, userId } = request.auth;
      const row = await findMyNotification(db, accountId, userId, request.params.id);
      if (!row) throw notFound(`Notification ${request.params.id}`);
      const readAt = read ? (row.read_at ?? isoSeconds(ctx.clock.now())) : null;
      if (readAt !== row.read_at) await setReadAt(db, userId, row.id, readAt);
      return presentNotification({ ...row, read_at: readAt });
    },
  );

  app.post(
    '/v1/notifications/markAllRead',
    {
      schema: {
        tags,
        summary: 'Mark all your notifications read',
        body: MarkAllReadBody,
        response: responses({ 200: Type.Object({ updated: Type.Integer() }) }),
      },
    },
    async (request) => {
      const { accountId, userId } = request.auth;
      const at = isoSeconds(ctx.clock.now());
      return { updated: await markAllRead(db, accountId, userId, at) };
    },
  );
};
