import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from './http/route-types.js';
import { peopleRoutes } from './people/people.routes.js';
import { peopleExportRoutes } from './imports/export.routes.js';
import { importsRoutes } from './imports/imports.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { usersAdminRoutes } from './users/users.admin.routes.js';
import { invitesRoutes } from './users/invites.routes.js';
import { personCustomFieldRoutes } from './customFields/customFields.routes.js';
import { timelineRoutes } from './timeline/timeline.routes.js';
import { stagesRoutes } from './stages/stages.routes.js';
import {
  appointmentOutcomesRoutes,
  appointmentTypesRoutes,
} from './appointmentTypes/appointmentTypes.routes.js';
import { pipelinesRoutes } from './pipelines/pipelines.routes.js';
import { dealsRoutes } from './deals/deals.routes.js';
import { dealAttachmentsRoutes } from './deals/dealAttachments.routes.js';
import { personAttachmentsRoutes } from './attachments/personAttachments.routes.js';
import { dealCustomFieldRoutes } from './deals/dealCustomFields.routes.js';
import { eventsRoutes } from './events/events.routes.js';
import { leadFlowsRoutes } from './leadFlows/leadFlows.routes.js';
import { groupsRoutes } from './groups/groups.routes.js';
import { roundRobinRoutes } from './groups/roundRobin.routes.js';
import { claimsRoutes } from './claims/claims.routes.js';
import { pondsRoutes } from './ponds/ponds.routes.js';
import { teamsRoutes } from './teams/teams.routes.js';
import { teamInboxesRoutes } from './teams/teamInboxes.routes.js';
import { inboxAppsRoutes } from './inboxApps/inboxApps.routes.js';
import { inboxConversationsRoutes } from './inboxApps/inboxConversations.routes.js';
import { notificationsRoutes } from './notifications/notifications.routes.js';
import { enrichmentRoutes } from './enrichment/enrichment.routes.js';
import { rateLimitRoutes } from './rateLimit/rateLimit.routes.js';
import { systemsRoutes } from './systems/systems.routes.js';
import { webhookRoutes } from './webhooks/webhooks.routes.js';
import { templatesRoutes } from './templates/templates.routes.js';
import { textMessageTemplatesRoutes } from './templates/textMessageTemplates.routes.js';
import { actionPlansRoutes } from './actionPlans/actionPlans.routes.js';
import { actionPlansPeopleRoutes } from './actionPlans/actionPlansPeople.routes.js';
import { oauthRoutes } from './oauth/oauth.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { passwordLinkRoutes } from './auth/passwordLinks.routes.js';
import { emCampaignsRoutes } from './emCampaigns/emCampaigns.routes.js';
import { campaignSendRoutes } from './emailSending/send.routes.js';
import { trackingRoutes } from './emailSending/tracking.routes.js';
import { bounceRoutes } from './emailSending/bounces.routes.js';
import { emEventsRoutes } from './emEvents/emEvents.routes.js';
import { smartListsRoutes } from './smartLists/smartLists.routes.js';
import { timeframesRoutes } from './timeframes/timeframes.routes.js';
import { webRoutes } from './web/web.routes.js';

export type { RouteOptions } from './http/route-types.js';

/** Every route module of the API, registered in this order. Add new resources here. */
export const routeModules: FastifyPluginAsync<RouteOptions>[] = [
  usersRoutes,
  usersAdminRoutes,
  invitesRoutes,
  personCustomFieldRoutes,
  peopleExportRoutes,
  peopleRoutes,
  importsRoutes,
  ...timelineRoutes,
  appointmentTypesRoutes,
  appointmentOutcomesRoutes,
  stagesRoutes,
  pipelinesRoutes,
  dealCustomFieldRoutes,
  dealsRoutes,
  dealAttachmentsRoutes,
  personAttachmentsRoutes,
  eventsRoutes,
  leadFlowsRoutes,
  groupsRoutes,
  roundRobinRoutes,
  claimsRoutes,
  pondsRoutes,
  teamsRoutes,
  teamInboxesRoutes,
  inboxAppsRoutes,
  inboxConversationsRoutes,
  notificationsRoutes,
  enrichmentRoutes,
  rateLimitRoutes,
  systemsRoutes,
  templatesRoutes,
  textMessageTemplatesRoutes,
  actionPlansRoutes,
  actionPlansPeopleRoutes,
  emCampaignsRoutes,
  campaignSendRoutes,
  trackingRoutes,
  bounceRoutes,
  emEventsRoutes,
  smartListsRoutes,
  timeframesRoutes,
  webhookRoutes,
  oauthRoutes,
  authRoutes,
  passwordLinkRoutes,
  webRoutes,
];
