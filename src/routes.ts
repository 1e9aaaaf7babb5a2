import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from './context.js';
import { peopleRoutes } from './people/people.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { personCustomFieldRoutes } from './customFields/customFields.routes.js';
import { timelineRoutes } from './timeline/timeline.routes.js';
import { stagesRoutes } from './stages/stages.routes.js';
import { appointmentOutcomesRoutes, appointmentTypesRoutes } from './appointmentTypes/appointmentTypes.routes.js';
import { pipelinesRoutes } from './pipelines/pipelines.routes.js';
import { dealsRoutes } from './deals/deals.routes.js';
import { dealAttachmentsRoutes } from './deals/dealAttachments.routes.js';
import { dealCustomFieldRoutes } from './deals/dealCustomFields.routes.js';
import { eventsRoutes } from './events/events.routes.js';
import { leadFlowsRoutes } from './leadFlows/leadFlows.routes.js';
import { groupsRoutes } from './groups/groups.routes.js';
import { notificationsRoutes } from './notifications/notifications.routes.js';
import { enrichmentRoutes } from './enrichment/enrichment.routes.js';
import { rateLimitRoutes } from './rateLimit/rateLimit.routes.js';
import { webhookRoutes } from './webhooks/webhooks.routes.js';
import { templatesRoutes } from './templates/templates.routes.js';
import { actionPlansRoutes } from './actionPlans/actionPlans.routes.js';
import { actionPlansPeopleRoutes } from './actionPlans/actionPlansPeople.routes.js';
import { oauthRoutes } from './oauth/oauth.routes.js';
import { emCampaignsRoutes } from './emCampaigns/emCampaigns.routes.js';
import { emEventsRoutes } from './emEvents/emEvents.routes.js';
import { smartListsRoutes } from './smartLists/smartLists.routes.js';

export interface RouteOptions {
  ctx: AppContext;
}

/** Every route module of the API, registered in this order. Add new resources here. */
export const routeModules: FastifyPluginAsync<RouteOptions>[] = [usersRoutes, personCustomFieldRoutes, peopleRoutes, ...timelineRoutes, appointmentTypesRoutes, appointmentOutcomesRoutes, stagesRoutes, pipelinesRoutes, dealCustomFieldRoutes, dealsRoutes, dealAttachmentsRoutes, eventsRoutes, leadFlowsRoutes, groupsRoutes, notificationsRoutes, enrichmentRoutes, rateLimitRoutes, templatesRoutes, actionPlansRoutes, actionPlansPeopleRoutes, emCampaignsRoutes, emEventsRoutes, smartListsRoutes, webhookRoutes, oauthRoutes];
