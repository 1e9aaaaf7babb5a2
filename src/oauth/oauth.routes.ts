import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../http/route-types.js';
import { authorizeRoutes } from './authorize.routes.js';
import { tokenRoutes } from './token.routes.js';

/** /oauth/authorize and /oauth/token: outside /v1, so no /v1 error shape and no rate limits. */
export const oauthRoutes: FastifyPluginAsync<RouteOptions> = async (instance, options) => {
  await instance.register(authorizeRoutes, options);
  await instance.register(tokenRoutes, options);
};
