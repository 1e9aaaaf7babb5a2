import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { badRequest, notFound } from '../http/errors.js';
import { Bool, IdParams, Nullable, responses, SystemField, toBool } from '../http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage } from '../http/pagination.js';
import { isoSeconds } from '../time.js';
import type { NotificationsTable } from './notifications.tables.js';
import './notifications.tables.js';

type NotificationRow = Selectable<NotificationsTable>;

const Notification = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  type: Type.String({ description: 'newLead or returningLead' }),
  title: Type.String(),
  message: Type.String(),
  personId: Type.Integer(),
  eventId: Nullable(Type.Integer()),
  read: Type.Boolean(),
  readAt: Nullable(Type.String()),
});

export function presentNotification(row: NotificationRow) {
  return {
    id: row.id,
    created: row.created_at,
    type: row.kind,
    title: row.title,
    message: row.message,
    personId: row.person_id,
    eventId: row.event_id,
    read: row.read_at !== null,
    readAt: row.read_at,
  };
}

const ListQuery = Type.Object(
  {
    ...PageQuery,
    unread: Type.Optional(Bool({ description: 'true: only notifications not yet read' })),
    personId: Type.Optional(Type.Integer({ minimum: 1 })),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const tags = ['notifications'];

/** /v1/notifications: the caller's own notifications about their leads. Every role has its own. */
export const notificationsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;
  const mine = (accountId: number, userId: number) =>
    db.selectFrom('notifications').selectAll().where('account_id', '=', accountId).where('user_id', '=', userId);

  app.get('/v1/notifications', {
    schema: { tags, summary: 'Your notifications, newest first', querystring: ListQuery, response: responses({ 200: ListEnvelope('notifications', Notification) }) },
  }, async (request) => {
    const q = request.query;
    let query = mine(request.auth.accountId, request.auth.userId);
    if (toBool(q.unread)) query = query.where('read_at', 'is', null);
    if (q.personId) query = query.where('person_id', '=', q.personId);
    const page = await paginate<NotificationRow>(request, {
      collection: 'notifications', query, page: readPage(q), sort: { name: '-id', expression: 'id', descending: true }, idExpression: 'id', publicUrl: ctx.config.publicUrl,
    });
    return { _metadata: page.metadata, notifications: page.rows.map(presentNotification) };
  });

  app.get('/v1/notifications/:id', {
    schema: { tags, summary: 'Get one of your notifications', params: IdParams, response: responses({ 200: Notification }) },
  }, async (request) => {
    const row = await mine(request.auth.accountId, request.auth.userId).where('id', '=', request.params.id).executeTakeFirst();
    if (!row) throw notFound(`Notification ${request.params.id}`);
    return presentNotification(row);
  });

  app.put('/v1/notifications/:id', {
    schema: {
      tags,
      summary: 'Mark one of your notifications read or unread',
      params: IdParams,
      body: Type.Object({ read: Bool(), ...SystemField }, { additionalProperties: false }),
      response: responses({ 200: Notification }),
    },
  }, async (request) => {
    if (!request.body) throw badRequest("Send {\"read\": true} or {\"read\": false}");
    const read = toBool(request.body.read);
    const { accountId, userId } = request.auth;
    const row = await mine(accountId, userId).where('id', '=', request.params.id).executeTakeFirst();
    if (!row) throw notFound(`Notification ${request.params.id}`);
    const readAt = read ? (row.read_at ?? isoSeconds(ctx.clock.now())) : null;
    if (readAt !== row.read_at) {
      await db.updateTable('notifications').set({ read_at: readAt }).where('id', '=', row.id).where('user_id', '=', userId).execute();
    }
    return presentNotification({ ...row, read_at: readAt });
  });

  app.post('/v1/notifications/markAllRead', {
    schema: {
      tags,
      summary: 'Mark all your notifications read',
      body: Type.Optional(Type.Object({ ...SystemField }, { additionalProperties: false })),
      response: responses({ 200: Type.Object({ updated: Type.Integer() }) }),
    },
  }, async (request) => {
    const result = await db
      .updateTable('notifications')
      .set({ read_at: isoSeconds(ctx.clock.now()) })
      .where('account_id', '=', request.auth.accountId)
      .where('user_id', '=', request.auth.userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return { updated: Number(result.numUpdatedRows) };
  });
};
