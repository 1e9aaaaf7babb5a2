import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { notFound } from '../../platform/http/errors.js';
import { JSON_TYPE, MAX_ID, responses, SystemField } from '../../platform/http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage } from '../../platform/http/pagination.js';
import { findPersonDocument } from '../../contacts/people/people.repo.js';
import { Person } from '../../contacts/people/people.schemas.js';
import { type PersonRow, presentPerson } from '../../contacts/people/people.presenter.js';
import { claimPerson, ignoreOffer } from './claims.service.js';
import { unclaimedPeopleOf } from './offers.repo.js';

const tags = ['people'];
const PersonIdBody = Type.Object(
  { personId: Type.Integer({ minimum: 1, maximum: MAX_ID }), ...SystemField },
  { additionalProperties: false },
);
const UnclaimedQuery = Type.Object(
  { ...PageQuery, system: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
const Ignored = Type.Object({ personId: Type.Integer(), status: Type.Literal('ignored') });

/**
 * First-to-claim lead routing: the leads offered to the caller, claiming one and declining one.
 * Static paths, so they win over /v1/people/:id whatever the registration order.
 */
export const claimsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/people/unclaimed',
    {
      schema: {
        tags,
        summary: 'People offered to you by a first-to-claim group and not yet claimed',
        querystring: UnclaimedQuery,
        response: responses({ 200: ListEnvelope('people', Person) }),
      },
    },
    async (request) => {
      const { accountId, userId } = request.auth;
      const page = await paginate<PersonRow>(request, {
        collection: 'people',
        query: unclaimedPeopleOf(db, accountId, userId),
        page: readPage(request.query),
        sort: { name: '-id', expression: 'people.id', descending: true },
        idExpression: 'people.id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, people: page.rows.map((row) => presentPerson(row)) };
    },
  );

  app.post(
    '/v1/people/claim',
    {
      schema: {
        tags,
        summary:
          'Claim a lead offered to you: the first claim makes you its agent; later claims are 409',
        body: PersonIdBody,
        response: responses({ 200: Person }),
      },
    },
    async (request, reply) => {
      const { personId } = request.body;
      await claimPerson(ctx, request.auth, personId);
      const document = await findPersonDocument(db, ctx.dialect, request.auth.accountId, personId);
      if (document === undefined) throw notFound(`Person ${personId}`);
      return reply.type(JSON_TYPE).send(document);
    },
  );

  app.post(
    '/v1/people/ignoreUnclaimed',
    {
      schema: {
        tags,
        summary:
          'Decline a lead offered to you; once every member declined, it goes to the fallback',
        body: PersonIdBody,
        response: responses({ 200: Ignored }),
      },
    },
    async (request) => {
      await ignoreOffer(ctx, request.auth, request.body.personId);
      return { personId: request.body.personId, status: 'ignored' as const };
    },
  );
};
