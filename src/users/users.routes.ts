import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { IdParams, responses } from '../http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage, readSort } from '../http/pagination.js';

export const User = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  updated: Type.String(),
  name: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  role: Type.String(),
  status: Type.String(),
});

type UserRow = Selectable<UsersTable>;

export function presentUser(row: UserRow) {
  return {
    id: row.id,
    created: row.created_at,
    updated: row.updated_at,
    name: row.name,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    status: 'Active',
  };
}

const ListQuery = Type.Object(
  {
    ...PageQuery,
    role: Type.Optional(Type.Union(['Owner', 'Admin', 'Broker', 'Agent', 'Lender'].map((r) => Type.Literal(r)))),
    name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    sort: Type.Optional(Type.String()),
    system: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const Identity = Type.Object({
  account: Type.Object({ id: Type.Integer(), name: Type.String(), owner: Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String() }) }),
  user: Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String(), role: Type.String() }),
});

const tags = ['users'];

export const usersRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  const { db } = ctx;
  const usersOf = (accountId: number) => db.selectFrom('users').select([
    'id', 'account_id', 'name', 'first_name', 'last_name', 'email', 'phone', 'role', 'created_at', 'updated_at',
  ]).where('account_id', '=', accountId);

  app.get('/v1/users', {
    schema: { tags, summary: 'List the users of the account', querystring: ListQuery, response: responses({ 200: ListEnvelope('users', User) }) },
  }, async (request) => {
    const q = request.query;
    let query = usersOf(request.auth.accountId);
    // The interface calls the Admin role "Broker"; both names filter the same users.
    if (q.role) query = query.where('role', '=', (q.role === 'Broker' ? 'Admin' : q.role) as UsersTable['role']);
    if (q.name) query = query.where('name', '=', q.name);
    if (q.email) query = query.where('email', '=', q.email.trim().toLowerCase());
    const page = await paginate<UserRow>(request, {
      collection: 'users',
      query,
      page: readPage(q),
      sort: readSort(q.sort, { name: 'name', email: 'email', created: 'created_at' }, 'id'),
      idExpression: 'id',
      publicUrl: ctx.config.publicUrl,
    });
    return { _metadata: page.metadata, users: page.rows.map(presentUser) };
  });

  app.get('/v1/users/:id', {
    schema: { tags, summary: 'Get a user', params: IdParams, response: responses({ 200: User }) },
  }, async (request) => {
    const row = await usersOf(request.auth.accountId).where('id', '=', request.params.id).executeTakeFirst();
    if (!row) throw notFound(`User ${request.params.id}`);
    return presentUser(row as UserRow);
  });

  app.get('/v1/me', {
    schema: { tags, summary: 'The user whose key made this request', response: responses({ 200: User }) },
  }, async (request) => presentUser((await usersOf(request.auth.accountId).where('id', '=', request.auth.userId).executeTakeFirstOrThrow()) as UserRow));

  app.get('/v1/identity', {
    schema: { tags, summary: 'The account and user behind this key', response: responses({ 200: Identity }) },
  }, async (request) => {
    const account = await db.selectFrom('accounts').select(['id', 'name']).where('id', '=', request.auth.accountId).executeTakeFirstOrThrow();
    const owner = await usersOf(account.id).where('role', '=', 'Owner').orderBy('id').executeTakeFirstOrThrow();
    const { userId, name, email, role } = request.auth;
    return {
      account: { id: account.id, name: account.name, owner: { id: owner.id, name: owner.name, email: owner.email } },
      user: { id: userId, name, email, role },
    };
  });
};
