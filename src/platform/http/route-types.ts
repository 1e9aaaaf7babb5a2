import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';

/** What every route module is registered with (src/app/routes.ts). A leaf module: route files import it from here. */
export interface RouteOptions {
  ctx: AppContext;
}

/** A route module: registered with the context, its handlers typed by their TypeBox schemas. */
export type RoutePlugin = FastifyPluginAsyncTypebox<RouteOptions>;
