import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { isoSeconds } from '../../platform/time.js';
import { deleteAccountRow } from '../../platform/db/account-rows.js';
import { Group, GroupCreateBody, GroupListQuery, GroupUpdateBody } from './groups.schemas.js';
import { presentGroup } from './groups.presenter.js';
import { findGroup, type GroupRow, groupsListQuery, membersOf } from './groups.repo.js';
import { changeGroup, createGroup } from './groups.service.js';

const tags = ['groups'];

/** /v1/groups: users that share leads round-robin. Anyone may read; Owner and Admin manage. */
export const groupsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());
  const load = async (accountId: number, id: number) => {
    const row = await findGroup(db, accountId, id);
    if (!row) throw notFound(`Group ${id}`);
    return presentGroup(row, (await membersOf(db, [row.id])).get(row.id)!);
  };

  app.get(
    '/v1/groups',
    {
      schema: {
        tags,
        summary: 'List groups',
        querystring: GroupListQuery,
        response: responses({ 200: ListEnvelope('groups', Group) }),
      },
    },
    async (request) => {
      const page = await paginate<GroupRow>(request, {
        collection: 'groups',
        query: groupsListQuery(db, request.auth.accountId, request.query.name),
        page: readPage(request.query),
        sort: readSort(request.query.sort, { name: 'name', created: 'created_at' }, 'id'),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      const members = await membersOf(
        db,
        page.rows.map((r) => r.id),
      );
      return {
        _metadata: page.metadata,
        groups: page.rows.map((r) => presentGroup(r, members.get(r.id)!)),
      };
    },
  );

  app.get(
    '/v1/groups/:id',
    {
      schema: {
        tags,
        summary: 'Get a group',
        params: IdParams,
        response: responses({ 200: Group }),
      },
    },
    async (request) => load(request.auth.accountId, request.params.id),
  );

  app.post(
    '/v1/groups',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Create a group (Owner, Admin)',
        body: GroupCreateBody,
        response: responses({ 201: Group }),
      },
    },
    async (request, reply) => {
      const { accountId } = request.auth;
      const id = await createGroup(db, accountId, request.body, now());
      return reply.code(201).send(await load(accountId, id));
    },
  );

  app.put(
    '/v1/groups/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Update a group; `users` replaces the members (Owner, Admin)',
        params: IdParams,
        body: GroupUpdateBody,
        response: responses({ 200: Group }),
      },
    },
    async (request) => {
      const { accountId } = request.auth;
      await changeGroup(db, accountId, request.params.id, request.body, now());
      return load(accountId, request.params.id);
    },
  );

  app.delete(
    '/v1/groups/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary:
          'Delete a group; lead flows using it fall back to the account owner (Owner, Admin)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      if (!(await deleteAccountRow(db, 'user_groups', request.auth.accountId, request.params.id)))
        throw notFound(`Group ${request.params.id}`);
      return reply.code(204).send(null);
    },
  );
};
