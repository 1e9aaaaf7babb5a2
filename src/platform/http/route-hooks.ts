import type { RouteOptions } from 'fastify';

type RouteHookName = 'preHandler' | 'onSend' | 'onResponse' | 'onRequestAbort';

/**
 * Adds a hook to one route, from an onRoute hook, for hooks that apply to few routes: an app-wide
 * hook costs every request a call and a promise. A route's hooks run after the app's, in the
 * order they were added.
 */
export function addRouteHook(route: RouteOptions, name: RouteHookName, hook: unknown): void {
  const existing = route[name] as unknown;
  const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  (route as unknown as Record<RouteHookName, unknown[]>)[name] = [...hooks, hook];
}

/** The methods of a route as a list (Fastify takes a method or several). */
export function routeMethods(route: RouteOptions): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}
