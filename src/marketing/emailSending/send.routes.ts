import type { RoutePlugin } from '../../platform/http/route-types.js';
import { Gate } from '../../access/gates.js';
import { IdParams, responses } from '../../platform/http/schemas.js';
import {
  CampaignEmailsOfPerson,
  CampaignSendBody,
  CampaignSendProgress,
  SendPreview,
  TestSendBody,
  TestSendResult,
} from './send.schemas.js';
import { previewSend, sendTestEmail } from './send-check.js';
import { assertPersonVisible } from '../../access/visibility.js';
import { campaignEmailsOf } from './person-emails.js';
import { cancelCampaignSend, sendProgress, startCampaignSend } from './send.service.js';

/** Built-in sending of a campaign (Owner, Admin, Agent: the roles that write campaigns). */
export const campaignSendRoutes: RoutePlugin = async (app, { ctx }) => {
  app.post(
    '/v1/emCampaigns/:id/send',
    {
      config: { gate: Gate.staff },
      schema: {
        tags: ['email marketing'],
        summary:
          'Send a campaign through Hearth to people or a smart list, now or at sendAt; 202, progress in GET /v1/emCampaigns/:id',
        params: IdParams,
        body: CampaignSendBody,
        response: responses({ 202: CampaignSendProgress }),
      },
    },
    async (request, reply) => {
      const send = await startCampaignSend(ctx, request.auth, request.params.id, request.body);
      return reply.code(202).send(await sendProgress(ctx, send));
    },
  );

  app.post(
    '/v1/emCampaigns/:id/send/preview',
    {
      config: { gate: Gate.staff },
      schema: {
        tags: ['email marketing'],
        summary:
          'How many people a send with this body would go to now, and the sender they would see; sends nothing',
        params: IdParams,
        body: CampaignSendBody,
        response: responses({ 200: SendPreview }),
      },
    },
    async (request) => previewSend(ctx, request.auth, request.params.id, request.body),
  );

  app.post(
    '/v1/emCampaigns/:id/sendTest',
    {
      config: { gate: Gate.staff },
      schema: {
        tags: ['email marketing'],
        summary:
          'Send the campaign as it is now to your own address only, marked [Test], untracked; answers once the mail server took it',
        params: IdParams,
        body: TestSendBody,
        response: responses({ 200: TestSendResult }),
      },
    },
    async (request) =>
      sendTestEmail(ctx, request.auth, request.params.id, request.body?.mergePersonId),
  );

  app.post(
    '/v1/emCampaigns/:id/send/cancel',
    {
      config: { gate: Gate.staff },
      schema: {
        tags: ['email marketing'],
        summary:
          "Cancel a campaign's send in progress or scheduled: recipients not yet handed to the SMTP server are not sent (status cancelled); 409 when nothing is being sent",
        params: IdParams,
        response: responses({ 200: CampaignSendProgress }),
      },
    },
    async (request) => {
      const send = await cancelCampaignSend(ctx, request.auth, request.params.id);
      return sendProgress(ctx, send);
    },
  );

  app.get(
    '/v1/people/:id/campaignEmails',
    {
      schema: {
        tags: ['email marketing'],
        summary:
          "A person's campaign emails (built-in and third-party) and what they did with them, newest first",
        params: IdParams,
        response: responses({ 200: CampaignEmailsOfPerson }),
      },
    },
    async (request) => {
      await assertPersonVisible(ctx.db, request.auth, request.params.id);
      return {
        campaignEmails: await campaignEmailsOf(ctx.db, request.auth.accountId, request.params.id),
      };
    },
  );
};
