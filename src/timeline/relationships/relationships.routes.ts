import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope } from '../../platform/http/pagination.js';
import { presentRelationship } from './relationships.presenter.js';
import {
  changedRelationshipValues,
  newRelationshipValues,
  personOfRelationshipChanged,
  relationships,
  relationshipsList,
} from './relationships.repo.js';
import {
  Relationship,
  RelationshipCreateBody,
  RelationshipListQuery,
  RelationshipUpdateBody,
} from './relationships.schemas.js';

const tags = ['peopleRelationships'];
const after = personOfRelationshipChanged;

export const relationshipsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/v1/peopleRelationships',
    {
      schema: {
        tags,
        summary: "People's relationships (spouse etc.)",
        querystring: RelationshipListQuery,
        response: responses({ 200: ListEnvelope('peoplerelationships', Relationship) }),
      },
    },
    async (request) => {
      const query = relationshipsList(db, request.auth, request.query);
      const page = await relationships.page(
        request,
        ctx,
        'peoplerelationships',
        query,
        request.query,
      );
      return { _metadata: page.metadata, peoplerelationships: page.rows.map(presentRelationship) };
    },
  );

  app.get(
    '/v1/peopleRelationships/:id',
    {
      schema: {
        tags,
        summary: 'A relationship',
        params: IdParams,
        response: responses({ 200: Relationship }),
      },
    },
    async (request) =>
      presentRelationship(await relationships.get(db, request.auth, request.params.id)),
  );

  app.post(
    '/v1/peopleRelationships',
    {
      schema: {
        tags,
        summary: 'Add a relationship to a person',
        body: RelationshipCreateBody,
        response: responses({ 201: Relationship }),
      },
    },
    async (request, reply) => {
      const auth = request.auth;
      const id = await relationships.create(
        ctx,
        auth,
        (trx) => newRelationshipValues(trx, auth, request.body),
        { after },
      );
      return reply.code(201).send(presentRelationship(await relationships.get(db, auth, id)));
    },
  );

  app.put(
    '/v1/peopleRelationships/:id',
    {
      schema: {
        tags,
        summary: 'Change a relationship; emails/phones/addresses are replaced whole',
        params: IdParams,
        body: RelationshipUpdateBody,
        response: responses({ 200: Relationship }),
      },
    },
    async (request) => {
      const { auth, body } = request;
      await relationships.update(
        ctx,
        auth,
        request.params.id,
        (trx, row) => changedRelationshipValues(trx, auth, row, body),
        { after },
      );
      return presentRelationship(await relationships.get(db, auth, request.params.id));
    },
  );

  app.delete(
    '/v1/peopleRelationships/:id',
    {
      schema: {
        tags,
        summary: 'Delete a relationship',
        params: IdParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await relationships.remove(ctx, request.auth, request.params.id, { after });
      return reply.code(204).send(null);
    },
  );
};
