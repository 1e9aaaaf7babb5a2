import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { requireRole } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { IdParams, responses, SystemField } from '../http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage, readSort } from '../http/pagination.js';
import { isoSeconds } from '../time.js';
import { type GroupMember, type GroupRow, groupsOf, membersOf, setMembers } from './groups.repo.js';

const Member = Type.Object({ id: Type.Integer(), name: Type.String() });
const Group = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  distribution: Type.String(),
  users: Type.Array(Member),
});

const UserRef = Type.Union([Type.Integer({ minimum: 1 }), Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: true })]);
const groupFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  distribution: Type.Optional(Type.Literal('round-robin', { description: 'How new leads are shared out; round-robin is the one supported' })),
  users: Type.Optional(Type.Array(UserRef, { maxItems: 500, description: 'User ids (or {id}) in rotation order' })),
  ...SystemField,
};
const CreateBody = Type.Object(groupFields, { additionalProperties: false });
const UpdateBody = Type.Object({ ...groupFields, name: Type.Optional(groupFields.name) }, { additionalProperties: false });

export function presentGroup(row: GroupRow, users: GroupMember[]) {
  return { id: row.id, created: row.created_at, updated: row.updated_at, name: row.name, distribution: row.distribution, users };
}

const userIds = (users: (number | { id: number })[]) => users.map((u) => (typeof u === 'number' ? u : u.id));
const tags = ['groups'];

/** /v1/groups: users that share leads round-robin. Anyone may read; Owner and Admin manage. */
export const groupsRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const load = async (accountId: number, id: number) => {
    const row = await groupsOf(db, accountId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`Group ${id}`);
    return presentGroup(row, (await membersOf(db, [row.id])).get(row.id)!);
  };

  app.get('/v1/groups', {
    schema: {
      tags,
      summary: 'List groups',
      querystring: Type.Object({ ...PageQuery, sort: Type.Optional(Type.String()), name: Type.Optional(Type.String()), system: Type.Optional(Type.String()) }, { additionalProperties: false }),
      response: responses({ 200: ListEnvelope('groups', Group) }),
    },
  }, async (request) => {
    let query = groupsOf(db, request.auth.accountId);
    if (request.query.name) query = query.where('name', '=', request.query.name);
    const page = await paginate<GroupRow>(request, {
      collection: 'groups', query, page: readPage(request.query), sort: readSort(request.query.sort, { name: 'name', created: 'created_at' }, 'id'), idExpression: 'id', publicUrl: ctx.config.publicUrl,
    });
    const members = await membersOf(db, page.rows.map((r) => r.id));
    return { _metadata: page.metadata, groups: page.rows.map((r) => presentGroup(r, members.get(r.id)!)) };
  });

  app.get('/v1/groups/:id', {
    schema: { tags, summary: 'Get a group', params: IdParams, response: responses({ 200: Group }) },
  }, async (request) => load(request.auth.accountId, request.params.id));

  app.post('/v1/groups', {
    schema: { tags, summary: 'Create a group (Owner, Admin)', body: CreateBody, response: responses({ 201: Group }) },
  }, async (request, reply) => {
    requireRole(request, 'Owner', 'Admin');
    const { accountId } = request.auth;
    const body = request.body;
    const id = await db.transaction().execute(async (trx) => {
      const at = now();
      const row = await trx
        .insertInto('user_groups')
        .values({ account_id: accountId, name: body.name.trim(), distribution: 'round-robin', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setMembers(trx, accountId, row.id, userIds(body.users ?? []));
      return row.id;
    });
    return reply.code(201).send(await load(accountId, id));
  });

  app.put('/v1/groups/:id', {
    schema: { tags, summary: 'Update a group; `users` replaces the members (Owner, Admin)', params: IdParams, body: UpdateBody, response: responses({ 200: Group }) },
  }, async (request) => {
    requireRole(request, 'Owner', 'Admin');
    const { accountId } = request.auth;
    const body = request.body;
    await db.transaction().execute(async (trx) => {
      const row = await groupsOf(trx, accountId).where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw notFound(`Group ${request.params.id}`);
      await trx.updateTable('user_groups').set({ name: body.name?.trim() ?? row.name, updated_at: now() }).where('id', '=', row.id).execute();
      if (body.users !== undefined) await setMembers(trx, accountId, row.id, userIds(body.users));
    });
    return load(accountId, request.params.id);
  });

  app.delete('/v1/groups/:id', {
    schema: { tags, summary: 'Delete a group; lead flows using it fall back to the account owner (Owner, Admin)', params: IdParams, response: responses({ 204: Type.Null() }) },
  }, async (request, reply) => {
    requireRole(request, 'Owner', 'Admin');
    const deleted = await db.deleteFrom('user_groups').where('account_id', '=', request.auth.accountId).where('id', '=', request.params.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notFound(`Group ${request.params.id}`);
    return reply.code(204).send(null);
  });
};
