import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { assertGate, Gate } from '../../access/gates.js';
import { IdParams, JSON_TYPE, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { findPersonDocument } from '../../contacts/people/people.repo.js';
import { Person } from '../../contacts/people/people.schemas.js';
import { EventBody } from '../events/events.schemas.js';
import { badRequest } from '../../platform/http/errors.js';
import {
  InboundEmail,
  InboundEmailDetail,
  InboundListQuery,
  RotateBody,
} from './inbound.schemas.js';
import { inboundList, type InboundRow, presentInbound } from './inbound.repo.js';
import { ignoreInbound, inboundDetail, leadFromInbound } from './review.js';
import { rotateLeadAddress } from '../../accounts/users/leadAddresses.js';

const tags = ['inboundEmails'];

/** Leads by email: the received messages (Owner, Admin), their review, and the lead addresses. */
export const inboundEmailRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/inboundEmails',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Every message received at the lead addresses, newest first (filter status)',
        querystring: InboundListQuery,
        response: responses({ 200: ListEnvelope('inboundemails', InboundEmail) }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await paginate<InboundRow>(request, {
        collection: 'inboundemails',
        query: inboundList(db, request.auth.accountId, q.status),
        page: readPage(q),
        sort: readSort(q.sort ?? '-id', { id: 'id', receivedAt: 'received_at' }, 'id'),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, inboundemails: page.rows.map(presentInbound) };
    },
  );

  app.get(
    '/v1/inboundEmails/:id',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'One received message as plain text, with what could be read for a lead',
        params: IdParams,
        response: responses({ 200: InboundEmailDetail }),
      },
    },
    async (request) => inboundDetail(ctx, request.auth.accountId, request.params.id),
  );

  app.post(
    '/v1/inboundEmails/:id/review/lead',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Make a lead by hand from a message (a POST /v1/events body); 201 new, 200 known',
        params: IdParams,
        body: EventBody,
        response: responses({ 200: Person, 201: Person, 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      if (!request.body) throw badRequest('Send the lead as a POST /v1/events body');
      const made = await leadFromInbound(ctx, request.auth, request.params.id, request.body);
      if (!made) return reply.code(204).send(null);
      const document = await findPersonDocument(
        db,
        ctx.dialect,
        request.auth.accountId,
        made.personId,
        request.auth,
      );
      return reply
        .code(201)
        .type(JSON_TYPE)
        .send(document ?? { id: made.personId });
    },
  );

  app.post(
    '/v1/inboundEmails/:id/review/ignore',
    {
      config: { gate: Gate.admin },
      schema: {
        tags,
        summary: 'Mark a message as no lead',
        params: IdParams,
        response: responses({ 200: InboundEmail }),
      },
    },
    async (request) => ignoreInbound(ctx, request.auth.accountId, request.params.id),
  );

  app.post(
    '/v1/leadEmailAddresses/rotate',
    {
      schema: {
        tags,
        summary:
          "A new lead address (the account's: Owner, Admin; or the caller's own); the old one stops taking mail",
        body: RotateBody,
        response: responses({ 200: Type.Object({ leadEmailAddress: Type.String() }) }),
      },
    },
    async (request) => {
      const { auth } = request;
      if (request.body.scope === 'account') assertGate(Gate.admin, auth);
      const owner = {
        accountId: auth.accountId,
        userId: request.body.scope === 'account' ? null : auth.userId,
      };
      const address = await db
        .transaction()
        .execute((trx) =>
          rotateLeadAddress(trx, ctx.config.inbound.domain, owner, ctx.clock.now()),
        );
      return { leadEmailAddress: address };
    },
  );
};
