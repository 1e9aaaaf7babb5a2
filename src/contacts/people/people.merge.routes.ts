import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, JSON_TYPE, Nullable, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, PageQuery, readPage } from '../../platform/http/pagination.js';
import { onlyVisiblePeople } from '../../access/visibility.js';
import { Person } from './people.schemas.js';
import { findPersonDocument } from './people.repo.js';
import { MAX_MERGED, mergePeople } from './people.merge.js';

const MergeBody = Type.Object(
  {
    personIds: Type.Array(Type.Integer({ minimum: 1 }), {
      minItems: 1,
      maxItems: MAX_MERGED,
      description: 'The people merged into this one and then deleted',
    }),
  },
  { additionalProperties: false },
);

const PersonChange = Type.Object({
  id: Type.Integer(),
  personId: Type.Integer(),
  field: Type.String({ description: 'stage or assignedUser' }),
  from: Nullable(Type.String({ description: 'the stage or agent before (null: none)' })),
  to: Nullable(Type.String()),
  userId: Nullable(Type.Integer({ description: 'who changed it; null when Hearth did' })),
  userName: Type.String(),
  created: Type.String(),
});

const PersonChangeListQuery = Type.Object({
  ...PageQuery,
  personId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only this person’s changes' })),
});

/** Merging duplicates, and the timeline's record of stage and agent changes (issue 31). */
export const peopleMergeRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;

  app.post(
    '/v1/people/:id/merge',
    {
      schema: {
        tags: ['people'],
        summary:
          'Merge people into this one: their emails, phones, addresses, tags, timeline and deals move here, then they are deleted',
        params: IdParams,
        body: MergeBody,
        response: responses({ 200: Person }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await mergePeople(ctx, request.auth, id, request.body.personIds);
      const document = await findPersonDocument(db, ctx.dialect, request.auth.accountId, id);
      if (document === undefined) throw notFound(`Person ${id}`); // deleted by another request meanwhile
      return reply.type(JSON_TYPE).send(document);
    },
  );

  app.get(
    '/v1/personChanges',
    {
      schema: {
        tags: ['people'],
        summary: 'Stage and assigned agent changes of people (who, when, from, to), newest first',
        querystring: PersonChangeListQuery,
        response: responses({ 200: ListEnvelope('personChanges', PersonChange) }),
      },
    },
    async (request) => {
      const { personId } = request.query;
      let query = db
        .selectFrom('person_changes')
        .selectAll()
        .where('account_id', '=', request.auth.accountId);
      if (personId !== undefined) query = query.where('person_id', '=', personId);
      const page = await paginate<{ id: number } & Record<string, unknown>>(request, {
        collection: 'personChanges',
        query: onlyVisiblePeople(query, db, request.auth, 'person_changes.person_id'),
        page: readPage(request.query),
        sort: { name: '-id', expression: 'id', descending: true },
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return {
        _metadata: page.metadata,
        personChanges: page.rows.map((row) => ({
          id: row.id,
          personId: row.person_id as number,
          field: row.field as string,
          from: row.from_value as string | null,
          to: row.to_value as string | null,
          userId: row.user_id as number | null,
          userName: row.user_name as string,
          created: row.created_at as string,
        })),
      };
    },
  );
};
