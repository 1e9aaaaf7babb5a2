import { apiFetch } from '../api/http';
import type { BulkAction } from '../api/types';

export type BulkKind = 'assign' | 'tag' | 'untag' | 'stage' | 'delete';

/** The API's name of each action (POST /v1/peopleBulkActions). */
const ACTIONS: Record<BulkKind, string> = {
  assign: 'assign',
  tag: 'addTag',
  untag: 'removeTag',
  stage: 'stage',
  delete: 'delete',
};

export type BulkProgress = BulkAction;

/** Who a bulk action is for: the chosen rows, or every person the list's filters match. */
export type BulkTarget = { personIds: number[] } | { filter: Record<string, unknown> };

/** The list's filters as the API reads them (empty ones dropped). */
export function filterOf(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  );
}

/**
 * Starts the action on the server: one job however many people. The key makes a retried request
 * (a double click, a flaky connection) find the same action instead of starting another.
 */
export async function startBulk(
  kind: BulkKind,
  value: string,
  target: BulkTarget,
  idempotencyKey: string,
): Promise<BulkProgress> {
  const body = { action: ACTIONS[kind], ...(kind === 'delete' ? {} : { value }), ...target };
  const { json } = await apiFetch('/v1/peopleBulkActions', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return json as BulkProgress;
}

export async function bulkProgress(id: number): Promise<BulkProgress> {
  return (await apiFetch(`/v1/peopleBulkActions/${id}`)).json as BulkProgress;
}

const count = (n: number) => (n === 1 ? '1 person' : `${n.toLocaleString('en-US')} people`);

/** What a finished bulk action says, in the words of the thing. */
export function bulkOutcome(kind: BulkKind, progress: BulkProgress, label: string): string {
  if (progress.status === 'failed') return progress.message ?? 'The action stopped';
  const people = count(progress.changed);
  const done =
    kind === 'assign'
      ? `Assigned ${people} to ${label}`
      : kind === 'tag'
        ? `Tag ${label} added to ${people}`
        : kind === 'untag'
          ? `Tag ${label} removed from ${people}`
          : kind === 'stage'
            ? `Moved ${people} to ${label}`
            : `Deleted ${people}`;
  if (!progress.skipped) return `${done}.`;
  const why = progress.errors[0] ? ` (${progress.errors[0].message})` : '';
  return `${done}; ${count(progress.skipped)} left as they were${why}.`;
}
