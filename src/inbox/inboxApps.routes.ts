import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../platform/http/route-types.js';

import type { AuthUser } from '../platform/http/auth-user.js';
import { notFound } from '../platform/http/errors.js';
import { responses } from '../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../platform/http/pagination.js';
import {
  AppParams,
  ConversationParams,
  ConversationUpdateBody,
  InstallBody,
  ListQuery,
  MessageBody,
  MessageUpdateBody,
  NoteBody,
  ParticipantBody,
  ParticipantParams,
  PublishedAppParams,
} from './inboxApps.schemas.js';
import { Conversation, InboxApp, InboxMessage, Participant } from './inboxAppResponses.schemas.js';
import {
  appsQuery,
  conversationOf,
  findApp,
  type InboxAppRow,
  messageById,
  participantById,
  type ParticipantRow,
  participantsOf,
} from './inboxApps.repo.js';
import {
  presentApp,
  presentConversation,
  presentMessage,
  presentParticipant,
} from './inboxApps.presenter.js';
import { addNote, postMessage } from './inboxMessages.service.js';
import {
  addParticipant,
  deactivateApp,
  installApp,
  removeParticipant,
  updateConversation,
  updateDelivery,
} from './inboxApps.service.js';

const tags = ['inboxApps'];

/**
 * /v1/inboxApps: what an installed messaging channel calls. An installation is used by the Owner
 * and Admins of its account, the user who installed it, and the user whose inbox it serves.
 */
export const inboxAppsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const appOf = async (auth: AuthUser, id: number): Promise<InboxAppRow> =>
    (await findApp(db, auth, id)) ?? Promise.reject(notFound(`Inbox app ${id}`));
  const conversation = async (installed: InboxAppRow, externalId: string) =>
    (await conversationOf(db, installed, externalId)) ??
    Promise.reject(notFound(`Conversation '${externalId}'`));

  app.post(
    '/v1/inboxApps/install',
    {
      schema: {
        tags,
        summary:
          "Install an inbox app (X-System and X-System-Key: the system's key signs what is sent to subscriptionUrl)",
        body: InstallBody,
        response: responses({ 201: InboxApp }),
      },
    },
    async (request, reply) => {
      const id = await installApp(ctx, request, request.body);
      return reply.code(201).send(presentApp(await appOf(request.auth, id)));
    },
  );

  app.get(
    '/v1/inboxApps',
    {
      schema: {
        tags,
        summary: 'Inbox apps you may use (Owner/Admin: every one of the account)',
        querystring: ListQuery,
        response: responses({ 200: ListEnvelope('inboxApps', InboxApp) }),
      },
    },
    async (request) => {
      const page = await paginate<InboxAppRow>(request, {
        collection: 'inboxApps',
        query: appsQuery(db, request.auth),
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'inbox_apps.id'),
        idExpression: 'inbox_apps.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, inboxApps: page.rows.map(presentApp) };
    },
  );

  app.get(
    '/v1/inboxApps/installedApps/:publishedInboxAppId',
    {
      schema: {
        tags,
        summary:
          'The installations of your published inbox app on this account that you may use (deactivated ones too)',
        params: PublishedAppParams,
        querystring: ListQuery,
        response: responses({ 200: ListEnvelope('inboxApps', InboxApp) }),
      },
    },
    async (request) => {
      const published = request.params.publishedInboxAppId;
      const page = await paginate<InboxAppRow>(request, {
        collection: 'inboxApps',
        query: appsQuery(db, request.auth).where('published_inbox_app_id', '=', published),
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'inbox_apps.id'),
        idExpression: 'inbox_apps.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, inboxApps: page.rows.map(presentApp) };
    },
  );

  app.get(
    '/v1/inboxApps/:id',
    {
      schema: {
        tags,
        summary: 'An inbox app',
        params: AppParams,
        response: responses({ 200: InboxApp }),
      },
    },
    async (request) => presentApp(await appOf(request.auth, request.params.id)),
  );

  app.delete(
    '/v1/inboxApps/:id',
    {
      schema: {
        tags,
        summary: 'Deactivate an inbox app: no more messages from it, nothing more sent to it',
        params: AppParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await deactivateApp(ctx, await appOf(request.auth, request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/inboxApps/:id/message',
    {
      schema: {
        tags,
        summary:
          "Add a message to a conversation (the first one names `person` and `owner`); it shows on the person's timeline",
        params: AppParams,
        body: MessageBody,
        response: responses({ 201: InboxMessage }),
      },
    },
    async (request, reply) => {
      const installed = await appOf(request.auth, request.params.id);
      const id = await postMessage(ctx, request.auth, installed, request.body);
      return reply.code(201).send(presentMessage(await messageById(db, id)));
    },
  );

  app.put(
    '/v1/inboxApps/:id/message',
    {
      schema: {
        tags,
        summary:
          "Update a message's delivery status (externalMessageId, or messageId of a Hearth user's reply)",
        params: AppParams,
        body: MessageUpdateBody,
        response: responses({ 200: InboxMessage }),
      },
    },
    async (request) => {
      const installed = await appOf(request.auth, request.params.id);
      return presentMessage(
        await messageById(db, await updateDelivery(ctx, installed, request.body)),
      );
    },
  );

  app.post(
    '/v1/inboxApps/:id/note',
    {
      schema: {
        tags,
        summary: 'Add a note (by a user of the account) to a conversation',
        params: AppParams,
        body: NoteBody,
        response: responses({ 201: InboxMessage }),
      },
    },
    async (request, reply) => {
      const id = await addNote(ctx, await appOf(request.auth, request.params.id), request.body);
      return reply.code(201).send(presentMessage(await messageById(db, id)));
    },
  );

  app.put(
    '/v1/inboxApps/:id/conversations/:externalId',
    {
      schema: {
        tags,
        summary:
          'Update a conversation: subject, archived, permanentlyArchived, assignedUserId, assignedInboxId',
        params: ConversationParams,
        body: ConversationUpdateBody,
        response: responses({ 200: Conversation }),
      },
    },
    async (request) => {
      const installed = await appOf(request.auth, request.params.id);
      await updateConversation(ctx, installed, request.params.externalId, request.body);
      return presentConversation(await conversation(installed, request.params.externalId));
    },
  );

  app.get(
    '/v1/inboxApps/:id/conversations/:externalId/participants',
    {
      schema: {
        tags,
        summary: "A conversation's participants",
        params: ConversationParams,
        querystring: ListQuery,
        response: responses({ 200: ListEnvelope('participants', Participant) }),
      },
    },
    async (request) => {
      const installed = await appOf(request.auth, request.params.id);
      const found = await conversation(installed, request.params.externalId);
      const page = await paginate<ParticipantRow>(request, {
        collection: 'participants',
        query: participantsOf(db, found.id),
        page: readPage(request.query),
        sort: readSort('id', {}, 'id'),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, participants: page.rows.map(presentParticipant) };
    },
  );

  app.post(
    '/v1/inboxApps/:id/conversations/:externalId/participants',
    {
      schema: {
        tags,
        summary: 'Add a participant: personId, userId or relationshipId, or name/email/phone',
        params: ConversationParams,
        body: ParticipantBody,
        response: responses({ 201: Participant }),
      },
    },
    async (request, reply) => {
      const { id, externalId } = request.params;
      const installed = await appOf(request.auth, id);
      const pid = await addParticipant(ctx, request.auth, installed, externalId, request.body);
      const found = await conversation(installed, externalId);
      return reply.code(201).send(presentParticipant(await participantById(db, found.id, pid)));
    },
  );

  app.delete(
    '/v1/inboxApps/:id/conversations/:externalId/participants/:participantId',
    {
      schema: {
        tags,
        summary: 'Remove a participant',
        params: ParticipantParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      const { id, externalId, participantId } = request.params;
      await removeParticipant(ctx, await appOf(request.auth, id), externalId, participantId);
      return reply.code(204).send(null);
    },
  );
};
