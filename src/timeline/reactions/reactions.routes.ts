import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { Reaction } from '../notes/notes.schemas.js';
import { presentReaction } from '../notes/notes.presenter.js';
import {
  ReactBody,
  ReactionListQuery,
  ReactionRefParams,
  UnreactBody,
  UnreactQuery,
} from './reactions.schemas.js';
import {
  getReaction,
  type ReactionRow,
  react,
  reactionsList,
  unreact,
} from './reactions.service.js';

const tags = ['reactions'];

/** Reactions to records (reactions.service.ts has the rules). */
export const reactionsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db, config } = ctx;

  app.get(
    '/v1/reactions',
    {
      schema: {
        tags,
        summary: 'List reactions (on notes the caller can see); filter by the record reacted to',
        querystring: ReactionListQuery,
        response: responses({ 200: ListEnvelope('reactions', Reaction) }),
      },
    },
    async (request) => {
      const page = await paginate<ReactionRow>(request, {
        collection: 'reactions',
        query: reactionsList(db, request.auth, request.query),
        page: readPage(request.query),
        sort: readSort(undefined, {}, 'reactions.id'),
        idExpression: 'reactions.id',
        publicUrl: config.publicUrl,
      });
      return { _metadata: page.metadata, reactions: page.rows.map(presentReaction) };
    },
  );

  app.get(
    '/v1/reactions/:id',
    {
      schema: {
        tags,
        summary: 'A reaction',
        params: IdParams,
        response: responses({ 200: Reaction }),
      },
    },
    async (request) => presentReaction(await getReaction(ctx, request.auth, request.params.id)),
  );

  app.post(
    '/v1/reactions/:refType/:refId',
    {
      schema: {
        tags,
        summary: 'React to a record with an emoji',
        params: ReactionRefParams,
        body: ReactBody,
        response: responses({ 200: Reaction, 201: Reaction }),
      },
    },
    async (request, reply) => {
      const { row, created } = await react(ctx, request.auth, request.params, request.body.body);
      return reply.code(created ? 201 : 200).send(presentReaction(row));
    },
  );

  app.delete(
    '/v1/reactions/:refType/:refId',
    {
      schema: {
        tags,
        summary:
          "Remove the caller's reaction with the emoji in the query (emoji=) or the body ({emoji} or {body}); without one, all of the caller's reactions on the record",
        params: ReactionRefParams,
        querystring: UnreactQuery,
        body: UnreactBody,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      const emoji =
        request.query.emoji ?? request.query.body ?? request.body?.emoji ?? request.body?.body;
      await unreact(ctx, request.auth, request.params, emoji);
      return reply.code(204).send(null);
    },
  );
};
