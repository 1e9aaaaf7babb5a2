import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../platform/http/errors.js';

/**
 * As in the real API, /v1/automations and /v1/automationsPeople answer an API key or access token
 * only with a registered system (X-System and a matching X-System-Key); the web app's session
 * needs none.
 */
export function requireSystemKey(request: FastifyRequest): void {
  if (request.auth.via === 'session' || request.system.verified) return;
  throw forbidden(
    'Automations are only open to registered systems: send X-System and its X-System-Key (an operator registers one with `admin create-system`)',
  );
}
