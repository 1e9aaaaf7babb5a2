import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import type { Api } from '../http/route-types.js';
import { IdParams, responses } from '../http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage } from '../http/pagination.js';
import { assertPersonVisible } from '../people/people.access.js';
import type { PersonSocialProfilesTable } from './enrichment.tables.js';
import './enrichment.tables.js';

type ProfileRow = Selectable<PersonSocialProfilesTable>;

const SocialProfile = Type.Object({ id: Type.Integer(), created: Type.String(), personId: Type.Integer(), network: Type.String(), url: Type.String() });

export function presentSocialProfile(row: ProfileRow) {
  return { id: row.id, created: row.created_at, personId: row.person_id, network: row.network, url: row.url };
}

/** GET /v1/people/:id/socialProfiles: profile links found by the enrichment provider. */
export const enrichmentRoutes: FastifyPluginAsync<RouteOptions> = async (instance, { ctx }) => {
  const app = instance as unknown as Api;
  app.get('/v1/people/:id/socialProfiles', {
    schema: {
      tags: ['people'],
      summary: "A person's social profiles, found through HEARTH_ENRICHMENT_URL",
      params: IdParams,
      querystring: Type.Object({ ...PageQuery, system: Type.Optional(Type.String()) }, { additionalProperties: false }),
      response: responses({ 200: ListEnvelope('socialProfiles', SocialProfile) }),
    },
  }, async (request) => {
    await assertPersonVisible(ctx.db, request.auth, request.params.id);
    const query = ctx.db.selectFrom('person_social_profiles').selectAll().where('account_id', '=', request.auth.accountId).where('person_id', '=', request.params.id);
    const page = await paginate<ProfileRow>(request, {
      collection: 'socialProfiles', query, page: readPage(request.query), sort: { name: '-id', expression: 'id', descending: true }, idExpression: 'id', publicUrl: ctx.config.publicUrl,
    });
    return { _metadata: page.metadata, socialProfiles: page.rows.map(presentSocialProfile) };
  });
};
