import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../routes.js';
import { notesRoutes } from '../notes/notes.routes.js';
import { reactionsRoutes } from '../reactions/reactions.routes.js';
import { threadedRepliesRoutes } from '../threadedReplies/threadedReplies.routes.js';

/** The contact timeline's route modules, registered together from src/routes.ts. */
export const timelineRoutes: FastifyPluginAsync<RouteOptions>[] = [
  notesRoutes,
  reactionsRoutes,
  threadedRepliesRoutes,
];
