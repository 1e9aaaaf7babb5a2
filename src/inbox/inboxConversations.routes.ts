import type { RoutePlugin } from '../platform/http/route-types.js';

import { notFound } from '../platform/http/errors.js';
import { IdParams, responses, toBool } from '../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../platform/http/pagination.js';
import { ArchiveBody, ReplyBody, TimelineQuery } from './inboxApps.schemas.js';
import { Conversation, InboxMessage } from './inboxAppResponses.schemas.js';
import {
  type ConversationRow,
  conversationsFor,
  messageById,
  messagesFor,
  type MessageRow,
  visibleConversation,
} from './inboxApps.repo.js';
import { presentConversation, presentMessage } from './inboxApps.presenter.js';
import { archive, markRead, reply } from './inboxReplies.service.js';

const tags = ['inboxApps'];

/**
 * The Hearth side of inbox apps: conversations and messages on the timelines of the people the
 * caller sees, and a user's reply, read and archive, each sent to the app's subscription URL.
 */
export const inboxConversationsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const load = async (auth: Parameters<typeof visibleConversation>[1], id: number) =>
    (await visibleConversation(db, auth, id)) ?? Promise.reject(notFound(`Conversation ${id}`));

  app.get(
    '/v1/inboxAppMessages',
    {
      schema: {
        tags,
        summary: 'Inbox app messages and notes on the timelines of the people you see (?personId=)',
        querystring: TimelineQuery,
        response: responses({ 200: ListEnvelope('inboxAppMessages', InboxMessage) }),
      },
    },
    async (request) => {
      const page = await paginate<MessageRow>(request, {
        collection: 'inboxAppMessages',
        query: messagesFor(db, request.auth, request.query),
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'inbox_messages.id'),
        idExpression: 'inbox_messages.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, inboxAppMessages: page.rows.map(presentMessage) };
    },
  );

  app.get(
    '/v1/inboxConversations',
    {
      schema: {
        tags,
        summary: 'Inbox app conversations of the people you see (?personId=, ?inboxAppId=)',
        querystring: TimelineQuery,
        response: responses({ 200: ListEnvelope('inboxConversations', Conversation) }),
      },
    },
    async (request) => {
      const page = await paginate<ConversationRow>(request, {
        collection: 'inboxConversations',
        query: conversationsFor(db, request.auth, request.query),
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'inbox_conversations.id'),
        idExpression: 'inbox_conversations.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, inboxConversations: page.rows.map(presentConversation) };
    },
  );

  app.get(
    '/v1/inboxConversations/:id',
    {
      schema: {
        tags,
        summary: 'An inbox app conversation',
        params: IdParams,
        response: responses({ 200: Conversation }),
      },
    },
    async (request) => presentConversation(await load(request.auth, request.params.id)),
  );

  app.post(
    '/v1/inboxConversations/:id/reply',
    {
      schema: {
        tags,
        summary:
          "Reply: stored on the person's timeline and sent to the app's subscriptionUrl as inboxAppReply",
        params: IdParams,
        body: ReplyBody,
        response: responses({ 201: InboxMessage }),
      },
    },
    async (request, res) => {
      const { message, attachments } = request.body;
      const id = await reply(ctx, request.auth, request.params.id, message, attachments);
      return res.code(201).send(presentMessage(await messageById(db, id)));
    },
  );

  app.post(
    '/v1/inboxConversations/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark read: the app receives inboxAppConversationRead',
        params: IdParams,
        response: responses({ 200: Conversation }),
      },
    },
    async (request) => {
      await markRead(ctx, request.auth, request.params.id);
      return presentConversation(await load(request.auth, request.params.id));
    },
  );

  app.post(
    '/v1/inboxConversations/:id/archive',
    {
      schema: {
        tags,
        summary:
          'Archive (or `archived: false` unarchive): the app receives inboxAppConversationArchived',
        params: IdParams,
        body: ArchiveBody,
        response: responses({ 200: Conversation }),
      },
    },
    async (request) => {
      const archived = toBool(request.body?.archived) ?? true;
      await archive(ctx, request.auth, request.params.id, archived);
      return presentConversation(await load(request.auth, request.params.id));
    },
  );
};
