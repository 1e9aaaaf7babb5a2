import { Type } from '@sinclair/typebox';

import type { RoutePlugin } from '../../platform/http/route-types.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, PageQuery, paginate, readPage } from '../../platform/http/pagination.js';
import { assertPersonVisible } from '../../access/visibility.js';
import { type SocialProfileRow, socialProfilesOf } from './enrichment.repo.js';
import { presentSocialProfile } from './enrichment.presenter.js';

const SocialProfile = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  personId: Type.Integer(),
  network: Type.String(),
  url: Type.String(),
});

/** GET /v1/people/:id/socialProfiles: profile links found by the enrichment provider. */
export const enrichmentRoutes: RoutePlugin = async (app, { ctx }) => {
  app.get(
    '/v1/people/:id/socialProfiles',
    {
      schema: {
        tags: ['people'],
        summary: "A person's social profiles, found through HEARTH_ENRICHMENT_URL",
        params: IdParams,
        querystring: Type.Object(
          { ...PageQuery, system: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
        response: responses({ 200: ListEnvelope('socialProfiles', SocialProfile) }),
      },
    },
    async (request) => {
      await assertPersonVisible(ctx.db, request.auth, request.params.id);
      const page = await paginate<SocialProfileRow>(request, {
        collection: 'socialProfiles',
        query: socialProfilesOf(ctx.db, request.auth.accountId, request.params.id),
        page: readPage(request.query),
        sort: { name: '-id', expression: 'id', descending: true },
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return { _metadata: page.metadata, socialProfiles: page.rows.map(presentSocialProfile) };
    },
  );
};
