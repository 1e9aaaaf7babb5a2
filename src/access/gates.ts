import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { AuthUser, UserRole } from '../platform/http/auth-user.js';
import { forbidden } from '../platform/http/errors.js';
import { addRouteHook } from '../platform/http/route-hooks.js';

/**
 * A role gate: the roles that may call a route, declared in the route's options
 * (`config: { gate: Gate.admin }`) and checked once, after authentication and validation, before
 * the handler runs. `refusal` replaces the generic 403 message where the API has its own words.
 */
export interface RoleGate {
  readonly roles: readonly UserRole[];
  readonly refusal?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    gate?: RoleGate;
  }
}

function gate(roles: UserRole[], refusal?: string): RoleGate {
  return Object.freeze({ roles: Object.freeze(roles), refusal });
}

/**
 * Who may change what. Reads are open to every role: the visibility rule (visibility.ts) limits
 * what they return. A route without a gate is open to every authenticated user.
 */
export const Gate = Object.freeze({
  /** The account's Owner only: pipelines, webhooks. */
  owner: gate(['Owner']),
  /** Owner and Admin: account settings (custom fields, stages, appointment types, lead flows,
   * groups, action plans). */
  admin: gate(['Owner', 'Admin']),
  /** Everyone but Lenders: email marketing, starting action plans on people. */
  staff: gate(['Owner', 'Admin', 'Agent']),
  /** Deals and their attachments: Lenders read them, the other roles change them. */
  dealWriter: gate(['Owner', 'Admin', 'Agent'], 'Lenders can read deals but not change them'),
  /** Deleting a person. */
  personDeleter: gate(['Owner', 'Admin', 'Agent'], 'Lenders cannot delete people'),
});

/** 403 unless `auth` holds one of the gate's roles. */
export function assertGate(gate: RoleGate, auth: AuthUser): void {
  if (gate.roles.includes(auth.role)) return;
  throw forbidden(
    gate.refusal ??
      `This action requires the ${gate.roles.join(' or ')} role; your key belongs to a ${auth.role}`,
  );
}

/** Checks each route's declared gate (runs after the auth hook and schema validation). */
export function registerGates(app: FastifyInstance): void {
  // Only on the routes that declare a gate.
  app.addHook('onRoute', (route: RouteOptions) => {
    const declared = route.config?.gate;
    if (declared)
      addRouteHook(route, 'preHandler', async (request: FastifyRequest) =>
        assertGate(declared, request.auth),
      );
  });
}

/** Only an Owner may make Owners, or change or remove one: may `caller` touch these roles? */
export function mayManageRoles(caller: AuthUser, ...roles: (UserRole | undefined)[]): boolean {
  return caller.role === 'Owner' || !roles.includes('Owner');
}

/**
 * An account must keep an Owner: does changing a user from `role` to `newRole`, or deactivating
 * them (no `newRole`), take an Owner away? Then another active Owner has to remain.
 */
export function takesAwayAnOwner(role: UserRole, newRole?: UserRole): boolean {
  return role === 'Owner' && newRole !== 'Owner';
}
