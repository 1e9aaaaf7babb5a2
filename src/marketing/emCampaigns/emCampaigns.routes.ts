import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { notFound } from '../../platform/http/errors.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import { ListEnvelope, paginate, readPage, readSort } from '../../platform/http/pagination.js';
import { assertPersonVisible } from '../../access/visibility.js';
import { loadMergeData } from '../templates/merge-data.js';
import { renderMergeFields } from '../templates/merge-fields.js';
import { EmCampaignStats } from '../emEvents/emEvents.schemas.js';
import { emStatistics } from '../emEvents/emEvents.stats.js';
import { isoSeconds } from '../../platform/time.js';
import {
  EmCampaign,
  EmCampaignCreateBody,
  EmCampaignGetQuery,
  EmCampaignListQuery,
  EmCampaignUpdateBody,
  SystemOnlyQuery,
} from './emCampaigns.schemas.js';
import { campaignsList, type EmCampaignRow, findCampaign } from './emCampaigns.repo.js';
import { presentEmCampaign } from './emCampaigns.presenter.js';
import { createCampaign, changeCampaign } from './emCampaigns.service.js';
import { latestSend } from '../emailSending/sends.repo.js';
import { sendProgress } from '../emailSending/send.service.js';

const tags = ['email marketing'];

/**
 * Email marketing campaigns. Any user may read them (they carry no person data); Owner, Admin and
 * Agent may create them (marketing tools post with an agent's key); their creator, Owners and
 * Admins change them; Lenders may not.
 */
export const emCampaignsRoutes: RoutePlugin = async (app, { ctx }) => {
  const { db } = ctx;
  const now = () => isoSeconds(ctx.clock.now());

  const loadCampaign = async (accountId: number, id: number): Promise<EmCampaignRow> => {
    const row = await findCampaign(db, accountId, id);
    if (!row) throw notFound(`Campaign ${id}`);
    return row;
  };

  app.get(
    '/v1/emCampaigns',
    {
      schema: {
        tags,
        summary: 'List email marketing campaigns (filter by origin and originId)',
        querystring: EmCampaignListQuery,
        response: responses({ 200: ListEnvelope('emCampaigns', EmCampaign) }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await paginate<EmCampaignRow>(request, {
        collection: 'emCampaigns',
        query: campaignsList(db, request.auth.accountId, q),
        page: readPage(q),
        sort: readSort(
          q.sort,
          { name: 'name', created: 'created_at', updated: 'updated_at' },
          'id',
        ),
        idExpression: 'id',
        publicUrl: ctx.config.publicUrl,
      });
      return {
        _metadata: page.metadata,
        emCampaigns: page.rows.map((row) => presentEmCampaign(row)),
      };
    },
  );

  app.get(
    '/v1/emCampaigns/:id',
    {
      schema: {
        tags,
        summary:
          'Get a campaign; with mergePersonId its subject and bodyHtml merge fields are applied for that person',
        params: IdParams,
        querystring: EmCampaignGetQuery,
        response: responses({ 200: EmCampaign }),
      },
    },
    async (request) => {
      const row = await loadCampaign(request.auth.accountId, request.params.id);
      const personId = request.query.mergePersonId;
      const send = await latestSend(db, request.auth.accountId, row.id);
      const lastSend = send ? { lastSend: await sendProgress(ctx, send) } : {};
      if (personId === undefined) return { ...presentEmCampaign(row), ...lastSend };
      await assertPersonVisible(db, request.auth, personId);
      const merge = await loadMergeData(db, request.auth.accountId, personId, request.auth.userId);
      if (!merge) throw notFound(`Person ${personId}`);
      const merged = {
        subject: renderMergeFields(row.subject, merge.data),
        bodyHtml: renderMergeFields(row.body_html, merge.data),
      };
      return { ...presentEmCampaign(row, merged), ...lastSend };
    },
  );

  app.get(
    '/v1/emCampaigns/:id/stats',
    {
      schema: {
        tags,
        summary:
          'Statistics of a campaign (sends, opens, clicks, bounces, unsubscribes, spam reports, rates)',
        params: IdParams,
        querystring: SystemOnlyQuery,
        response: responses({ 200: EmCampaignStats }),
      },
    },
    async (request) => {
      const row = await loadCampaign(request.auth.accountId, request.params.id);
      return {
        campaignId: row.id,
        stats: await emStatistics(db, request.auth, { campaignId: row.id }),
      };
    },
  );

  app.post(
    '/v1/emCampaigns',
    {
      config: { gate: Gate.staff },
      schema: {
        tags,
        summary:
          'Create a campaign (Owner, Admin or Agent); its id is the campaignId of POST /v1/emEvents',
        body: EmCampaignCreateBody,
        response: responses({ 200: EmCampaign, 201: EmCampaign }),
      },
    },
    async (request, reply) => {
      const result = await createCampaign(db, request.auth, request.body, now());
      return reply.code(result.created ? 201 : 200).send(presentEmCampaign(result.row));
    },
  );

  app.put(
    '/v1/emCampaigns/:id',
    {
      config: { gate: Gate.staff },
      schema: {
        tags,
        summary:
          'Update a campaign when its name, subject or body changes (its creator, an Owner or an Admin)',
        params: IdParams,
        body: EmCampaignUpdateBody,
        response: responses({ 200: EmCampaign }),
      },
    },
    async (request) => {
      const { auth, params, body } = request;
      const row = await changeCampaign(db, auth, params.id, body, now());
      return presentEmCampaign(row);
    },
  );
};
