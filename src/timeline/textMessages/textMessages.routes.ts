import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { presentTextMessage } from './textMessages.presenter.js';
import {
  changedTextMessageValues,
  newTextMessageValues,
  textMessages,
  textMessagesList,
} from './textMessages.repo.js';
import {
  TextMessage,
  TextMessageCreateBody,
  TextMessageListQuery,
  TextMessageUpdateBody,
} from './textMessages.schemas.js';

const tags = ['textMessages'];

export const textMessagesRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/textMessages',
    {
      schema: {
        tags,
        summary: 'Logged text messages',
        querystring: TextMessageListQuery,
        response: responses({ 200: ListEnvelope('textmessages', TextMessage) }),
      },
    },
    async (request) => {
      const query = textMessagesList(db, request.auth, request.query);
      const page = await textMessages.page(request, ctx, 'textmessages', query, request.query);
      return { _metadata: page.metadata, textmessages: page.rows.map(presentTextMessage) };
    },
  );

  app.get(
    '/v1/textMessages/:id',
    {
      schema: {
        tags,
        summary: 'A logged text message',
        params: IdParams,
        response: responses({ 200: TextMessage }),
      },
    },
    async (request) =>
      presentTextMessage(await textMessages.get(db, request.auth, request.params.id)),
  );

  app.post(
    '/v1/textMessages',
    {
      schema: {
        tags,
        summary: 'Log a text message (sends nothing)',
        body: TextMessageCreateBody,
        response: responses({ 201: TextMessage }),
      },
    },
    async (request, reply) => {
      const auth = request.auth;
      const system = request.system?.name ?? '';
      const id = await textMessages.create(
        ctx,
        auth,
        (trx) => newTextMessageValues(trx, auth, request.body, system),
        { touchesPerson: true, contactsPerson: true },
      );
      return reply.code(201).send(presentTextMessage(await textMessages.get(db, auth, id)));
    },
  );

  app.put(
    '/v1/textMessages/:id',
    {
      schema: {
        tags,
        summary: 'Change a logged text message',
        params: IdParams,
        body: TextMessageUpdateBody,
        response: responses({ 200: TextMessage }),
      },
    },
    async (request) => {
      const { auth, body } = request;
      await textMessages.update(ctx, auth, request.params.id, (trx, row) =>
        changedTextMessageValues(trx, auth, row, body),
      );
      return presentTextMessage(await textMessages.get(db, auth, request.params.id));
    },
  );

  app.delete(
    '/v1/textMessages/:id',
    {
      schema: {
        tags,
        summary: 'Delete a logged text message',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await textMessages.remove(ctx, request.auth, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
