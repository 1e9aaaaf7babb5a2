import type { RoutePlugin } from '../platform/http/route-types.js';
import { peopleRoutes } from '../contacts/people/people.routes.js';
import { peopleExportRoutes } from '../contacts/imports/export.routes.js';
import { importsRoutes } from '../contacts/imports/imports.routes.js';
import { bulkActionsRoutes } from '../contacts/bulkActions/bulkActions.routes.js';
import { usersRoutes } from '../accounts/users/users.routes.js';
import { usersAdminRoutes } from '../accounts/users/users.admin.routes.js';
import { invitesRoutes } from '../accounts/users/invites.routes.js';
import { personCustomFieldRoutes } from '../contacts/customFields/customFields.routes.js';
import { timelineRoutes } from '../timeline/timeline.routes.js';
import { stagesRoutes } from '../contacts/stages/stages.routes.js';
import {
  appointmentOutcomesRoutes,
  appointmentTypesRoutes,
} from '../timeline/appointmentTypes/appointmentTypes.routes.js';
import { pipelinesRoutes } from '../deals/pipelines/pipelines.routes.js';
import { dealsRoutes } from '../deals/deals.routes.js';
import { dealAttachmentsRoutes } from '../deals/dealAttachments.routes.js';
import { personAttachmentsRoutes } from '../contacts/attachments/personAttachments.routes.js';
import { dealCustomFieldRoutes } from '../deals/dealCustomFields.routes.js';
import { eventsRoutes } from '../leads/events/events.routes.js';
import { leadFlowsRoutes } from '../leads/leadFlows/leadFlows.routes.js';
import { groupsRoutes } from '../leads/groups/groups.routes.js';
import { roundRobinRoutes } from '../leads/groups/roundRobin.routes.js';
import { claimsRoutes } from '../leads/claims/claims.routes.js';
import { pondsRoutes } from '../leads/ponds/ponds.routes.js';
import { teamsRoutes } from '../leads/teams/teams.routes.js';
import { teamInboxesRoutes } from '../leads/teams/teamInboxes.routes.js';
import { inboxAppsRoutes } from '../inbox/inboxApps.routes.js';
import { inboxConversationsRoutes } from '../inbox/inboxConversations.routes.js';
import { notificationsRoutes } from '../accounts/notifications/notifications.routes.js';
import { enrichmentRoutes } from '../leads/enrichment/enrichment.routes.js';
import { rateLimitRoutes } from '../accounts/rateLimit/rateLimit.routes.js';
import { systemsRoutes } from '../accounts/systems/systems.routes.js';
import { webhookRoutes } from '../accounts/webhooks/webhooks.routes.js';
import { templatesRoutes } from '../marketing/templates/templates.routes.js';
import { textMessageTemplatesRoutes } from '../marketing/templates/textMessageTemplates.routes.js';
import { actionPlansRoutes } from '../marketing/actionPlans/actionPlans.routes.js';
import { actionPlansPeopleRoutes } from '../marketing/actionPlans/actionPlansPeople.routes.js';
import { oauthRoutes } from '../accounts/oauth/oauth.routes.js';
import { authRoutes } from '../accounts/auth/auth.routes.js';
import { passwordLinkRoutes } from '../accounts/auth/passwordLinks.routes.js';
import { emCampaignsRoutes } from '../marketing/emCampaigns/emCampaigns.routes.js';
import { campaignSendRoutes } from '../marketing/emailSending/send.routes.js';
import { trackingRoutes } from '../marketing/emailSending/tracking.routes.js';
import { bounceRoutes } from '../marketing/emailSending/bounces.routes.js';
import { emEventsRoutes } from '../marketing/emEvents/emEvents.routes.js';
import { smartListsRoutes } from '../contacts/smartLists/smartLists.routes.js';
import { timeframesRoutes } from '../contacts/timeframes/timeframes.routes.js';
import { inboundEmailRoutes } from '../leads/inboundEmail/inbound.routes.js';
import { mailboxesRoutes } from '../inbox/mailboxes/mailboxes.routes.js';
import { mailboxOAuthRoutes } from '../inbox/mailboxes/oauth.routes.js';
import { inboundHookRoutes } from '../leads/inboundEmail/hook.routes.js';
import { inboundHistoricRoutes } from '../leads/inboundEmail/historic.routes.js';
import { automationsRoutes } from '../marketing/automations/automations.routes.js';
import { automationsPeopleRoutes } from '../marketing/automations/automationsPeople.routes.js';
import { reportsRoutes } from '../reports/reports.routes.js';
import { moreReportsRoutes } from '../reports/reports.more.routes.js';
import { peopleMergeRoutes } from '../contacts/people/people.merge.routes.js';
import { meRoutes } from '../accounts/users/me.routes.js';
import { mcpRoutes } from '../assistants/mcp.routes.js';
import { assistantsRoutes } from '../assistants/assistants.routes.js';
import { webRoutes } from '../platform/web/web.routes.js';

export type { RouteOptions } from '../platform/http/route-types.js';

/** Every route module of the API, registered in this order. Add new resources here. */
export const routeModules: RoutePlugin[] = [
  usersRoutes,
  meRoutes,
  usersAdminRoutes,
  invitesRoutes,
  personCustomFieldRoutes,
  peopleExportRoutes,
  peopleRoutes,
  peopleMergeRoutes,
  importsRoutes,
  bulkActionsRoutes,
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
  automationsRoutes,
  automationsPeopleRoutes,
  emCampaignsRoutes,
  campaignSendRoutes,
  trackingRoutes,
  bounceRoutes,
  inboundEmailRoutes,
  mailboxesRoutes,
  mailboxOAuthRoutes,
  inboundHookRoutes,
  inboundHistoricRoutes,
  emEventsRoutes,
  smartListsRoutes,
  reportsRoutes,
  moreReportsRoutes,
  timeframesRoutes,
  webhookRoutes,
  oauthRoutes,
  mcpRoutes,
  assistantsRoutes,
  authRoutes,
  passwordLinkRoutes,
  webRoutes,
];
