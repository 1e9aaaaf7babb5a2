import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from './context.js';
import { peopleRoutes } from './people/people.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { personCustomFieldRoutes } from './customFields/customFields.routes.js';

export interface RouteOptions {
  ctx: AppContext;
}

/** Every route module of the API, registered in this order. Add new resources here. */
export const routeModules: FastifyPluginAsync<RouteOptions>[] = [usersRoutes, personCustomFieldRoutes, peopleRoutes];
