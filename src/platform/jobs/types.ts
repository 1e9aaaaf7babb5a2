import type { AppContext } from '../context.js';

/** A loop that runs beside (or instead of) the API: webhook delivery, scheduled automations. */
export interface BackgroundJob {
  name: string;
  /** Starts the loop; must return promptly. */
  start(): void;
  /** Stops taking new work and resolves once in-flight work has finished. */
  stop(): Promise<void>;
}

export type BackgroundJobFactory = (ctx: AppContext) => BackgroundJob;

/** A background job for a feature that is not configured: it has nothing to do. */
export function idleJob(name: string): BackgroundJob {
  return { name, start() {}, async stop() {} };
}
