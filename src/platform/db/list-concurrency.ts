import { availableParallelism } from 'node:os';
import { dialectOf } from './dialect.js';

/*
 * How many people-list reads (a page and its total) run at once: SQLite's read threads, or
 * PostgreSQL's list lanes (list-lanes.ts). HEARTH_LIST_CONCURRENCY sets it; by default:
 *
 * - SQLite: a read thread per core, 2 to 4. They run at a lower priority than the event loop
 *   (read-threads.ts), so lists take only the CPU time the rest leaves.
 * - PostgreSQL on this machine (localhost, a Unix socket): half of the cores, at least one. A
 *   list read keeps a backend busy on a core for its whole run and cannot be made to yield
 *   (docs/performance.md); lists beyond that wait in their lane, as they would for a core.
 * - PostgreSQL on another host: half of the connection pool. Hearth cannot see that host's cores;
 *   set HEARTH_LIST_CONCURRENCY to about half of them.
 */
export function listConcurrency(
  databaseUrl: string,
  configured: number | null,
  poolSize: number,
  cores = availableParallelism(),
): number {
  if (configured) return configured;
  if (dialectOf(databaseUrl) === 'sqlite') return Math.min(4, Math.max(2, cores));
  if (databaseOnThisHost(databaseUrl)) return Math.max(1, Math.floor(cores / 2));
  return Math.max(1, Math.floor(poolSize / 2));
}

function databaseOnThisHost(databaseUrl: string): boolean {
  let host: string;
  try {
    const url = new URL(databaseUrl);
    host = decodeURIComponent(url.hostname || url.searchParams.get('host') || '');
  } catch {
    return false;
  }
  return (
    host === '' ||
    host.startsWith('/') ||
    host === 'localhost' ||
    host === '[::1]' ||
    host === '::1' ||
    /^127\./.test(host)
  );
}
