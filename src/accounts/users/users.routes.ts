import type { RoutePlugin } from '../../platform/http/route-types.js';
import type { UsersTable } from '../../platform/db/database.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { findAccount } from '../accounts.repo.js';
import { leadAddressOf } from './leadAddresses.js';
import { Identity, User, UserListQuery } from './users.schemas.js';
import { presentUsers } from './users.presenter.js';
import { findUser, firstOwner, getUser, type UserRow, usersListQuery } from './users.repo.js';

const tags = ['users'];

/** The interface calls the Admin role "Broker"; both names filter the same users. */
function storedRoleName(filter: string): UsersTable['role'] {
  return (filter === 'Broker' ? 'Admin' : filter) as UsersTable['role'];
}

export const usersRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/users',
    {
      schema: {
        tags,
        summary: 'List the users of the account',
        querystring: UserListQuery,
        response: responses({ 200: ListEnvelope('users', User) }),
      },
    },
    async (request) => {
      const q = request.query;
      const filters = { ...q, role: q.role ? storedRoleName(q.role) : undefined };
      const page = await paginate<UserRow>(request, {
        collection: 'users',
        query: usersListQuery(db, request.auth.accountId, filters),
        page: readPage(q),
        sort: readSort(q.sort, { name: 'name', email: 'email', created: 'created_at' }, 'id'),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, users: await presentUsers(db, page.rows) };
    },
  );

  app.get(
    '/v1/users/:id',
    {
      schema: { tags, summary: 'Get a user', params: IdParams, response: responses({ 200: User }) },
    },
    async (request) => {
      const row = await findUser(db, request.auth.accountId, request.params.id);
      if (!row) throw notFound(`User ${request.params.id}`);
      return (await presentUsers(db, [row]))[0];
    },
  );

  app.get(
    '/v1/me',
    {
      schema: {
        tags,
        summary: 'The user whose key made this request',
        response: responses({ 200: User }),
      },
    },
    async (request) =>
      (await presentUsers(db, [await getUser(db, request.auth.accountId, request.auth.userId)]))[0],
  );

  app.get(
    '/v1/identity',
    {
      schema: {
        tags,
        summary: 'The account and user behind this key',
        response: responses({ 200: Identity }),
      },
    },
    async (request) => {
      const account = (await findAccount(db, request.auth.accountId))!;
      const owner = await firstOwner(db, account.id);
      const { userId, name, email, role } = request.auth;
      const { domain } = ctx.config.inbound;
      const now = ctx.clock.now();
      return {
        account: {
          id: account.id,
          name: account.name,
          owner: { id: owner.id, name: owner.name, email: owner.email },
          leadEmailAddress: await leadAddressOf(
            db,
            domain,
            { accountId: account.id, userId: null },
            now,
          ),
        },
        user: {
          id: userId,
          name,
          email,
          role,
          leadEmailAddress: await leadAddressOf(db, domain, { accountId: account.id, userId }, now),
        },
      };
    },
  );
};
