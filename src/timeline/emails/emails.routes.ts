import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { presentEmail } from './emails.presenter.js';
import { changedEmailValues, emails, emailsList, newEmailValues } from './emails.repo.js';
import { Email, EmailCreateBody, EmailListQuery, EmailUpdateBody } from './emails.schemas.js';

const tags = ['emails'];

/** Logged emails on a person's timeline: Hearth records them, it sends nothing. */
export const emailsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/emails',
    {
      schema: {
        tags,
        summary: 'Logged emails',
        querystring: EmailListQuery,
        response: responses({ 200: ListEnvelope('emails', Email) }),
      },
    },
    async (request) => {
      const query = emailsList(db, request.auth, request.query);
      const page = await emails.page(request, ctx, 'emails', query, request.query);
      return { _metadata: page.metadata, emails: page.rows.map(presentEmail) };
    },
  );

  app.get(
    '/v1/emails/:id',
    {
      schema: {
        tags,
        summary: 'A logged email',
        params: IdParams,
        response: responses({ 200: Email }),
      },
    },
    async (request) => presentEmail(await emails.get(db, request.auth, request.params.id)),
  );

  app.post(
    '/v1/emails',
    {
      schema: {
        tags,
        summary: 'Log an email on a person (sends nothing)',
        body: EmailCreateBody,
        response: responses({ 201: Email }),
      },
    },
    async (request, reply) => {
      const auth = request.auth;
      const system = request.system?.name ?? '';
      const id = await emails.create(
        ctx,
        auth,
        (trx, at) => newEmailValues(trx, auth, request.body, system, at),
        { touchesPerson: true, contactsPerson: true },
      );
      return reply.code(201).send(presentEmail(await emails.get(db, auth, id)));
    },
  );

  app.put(
    '/v1/emails/:id',
    {
      schema: {
        tags,
        summary: 'Change a logged email',
        params: IdParams,
        body: EmailUpdateBody,
        response: responses({ 200: Email }),
      },
    },
    async (request) => {
      const { auth, body } = request;
      await emails.update(ctx, auth, request.params.id, (trx, row) =>
        changedEmailValues(trx, auth, row, body),
      );
      return presentEmail(await emails.get(db, auth, request.params.id));
    },
  );

  app.delete(
    '/v1/emails/:id',
    {
      schema: {
        tags,
        summary: 'Delete a logged email',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await emails.remove(ctx, request.auth, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
