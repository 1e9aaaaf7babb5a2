import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage } from '../../platform/http/pagination.js';
import { timelineSort } from '../timeline.shared.js';
import { ThreadedReply } from '../notes/notes.schemas.js';
import { presentThreadedReply, type ThreadedReplyRow } from '../notes/notes.presenter.js';
import {
  ThreadedReplyCreateBody,
  ThreadedReplyListQuery,
  ThreadedReplyUpdateBody,
} from './threadedReplies.schemas.js';
import {
  createReply,
  deleteReply,
  editReply,
  getReply,
  repliesList,
} from './threadedReplies.service.js';

const tags = ['threadedReplies'];

/** Threaded replies on a record (threadedReplies.service.ts has the rules). */
export const threadedRepliesRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db, config } = ctx;

  app.get(
    '/v1/threadedReplies',
    {
      schema: {
        tags,
        summary: 'Threaded replies (filters refType + refId)',
        querystring: ThreadedReplyListQuery,
        response: responses({ 200: ListEnvelope('threadedReplies', ThreadedReply) }),
      },
    },
    async (request) => {
      const page = await paginate<ThreadedReplyRow>(request, {
        collection: 'threadedReplies',
        query: await repliesList(ctx, request.auth, request.query),
        page: readPage(request.query),
        sort: timelineSort(request.query.sort, 'threaded_replies'),
        idExpression: 'threaded_replies.id',
        publicUrl: config.publicUrl,
      });
      return { _metadata: page.metadata, threadedReplies: page.rows.map(presentThreadedReply) };
    },
  );

  app.get(
    '/v1/threadedReplies/:id',
    {
      schema: {
        tags,
        summary: 'A threaded reply',
        params: IdParams,
        response: responses({ 200: ThreadedReply }),
      },
    },
    async (request) => presentThreadedReply(await getReply(db, request.auth, request.params.id)),
  );

  app.post(
    '/v1/threadedReplies',
    {
      schema: {
        tags,
        summary: 'Reply to a record',
        body: ThreadedReplyCreateBody,
        response: responses({ 201: ThreadedReply }),
      },
    },
    async (request, reply) => {
      const id = await createReply(ctx, request.auth, request.body);
      return reply.code(201).send(presentThreadedReply(await getReply(db, request.auth, id)));
    },
  );

  app.put(
    '/v1/threadedReplies/:id',
    {
      schema: {
        tags,
        summary: 'Edit your reply',
        params: IdParams,
        body: ThreadedReplyUpdateBody,
        response: responses({ 200: ThreadedReply }),
      },
    },
    async (request) => {
      await editReply(ctx, request.auth, request.params.id, request.body.body);
      return presentThreadedReply(await getReply(db, request.auth, request.params.id));
    },
  );

  app.delete(
    '/v1/threadedReplies/:id',
    {
      schema: {
        tags,
        summary: 'Delete a reply (its author, an Owner or an Admin)',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await deleteReply(ctx, request.auth, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
