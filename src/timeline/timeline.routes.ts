import type { RoutePlugin } from '../platform/http/route-types.js';
import { notesRoutes } from './notes/notes.routes.js';
import { reactionsRoutes } from './reactions/reactions.routes.js';
import { callsRoutes } from './calls/calls.routes.js';
import { textMessagesRoutes } from './textMessages/textMessages.routes.js';
import { emailsRoutes } from './emails/emails.routes.js';
import { tasksRoutes } from './tasks/tasks.routes.js';
import { appointmentsRoutes } from './appointments/appointments.routes.js';
import { relationshipsRoutes } from './relationships/relationships.routes.js';
import { threadedRepliesRoutes } from './threadedReplies/threadedReplies.routes.js';

/** The contact timeline's route modules, registered together from src/routes.ts. */
export const timelineRoutes: RoutePlugin[] = [
  notesRoutes,
  reactionsRoutes,
  threadedRepliesRoutes,
  callsRoutes,
  textMessagesRoutes,
  emailsRoutes,
  tasksRoutes,
  appointmentsRoutes,
  relationshipsRoutes,
];
