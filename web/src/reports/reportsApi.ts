import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/http';
import type { AgentActivityRow, LeadSourceRow, StageTotals } from '../api/types';

export type AgentRow = AgentActivityRow;
export type SourceRow = LeadSourceRow;
export type StageRow = StageTotals;

/** The period picker's choices: the last N days up to now. */
export const PERIODS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 12 months' },
] as const;

export function periodQuery(days: number, nowMs: number): string {
  const until = new Date(Math.ceil(nowMs / 60_000) * 60_000);
  const since = new Date(until.getTime() - days * 86_400_000);
  const iso = (d: Date) => d.toISOString().slice(0, 19) + 'Z';
  return `since=${encodeURIComponent(iso(since))}&until=${encodeURIComponent(iso(until))}`;
}

export function useReport<T>(path: string, query: string, extra = '') {
  const url = `/v1/reports/${path}?${query}${extra}`;
  return useQuery({
    queryKey: ['report', url],
    queryFn: async () => (await apiFetch(url)).json as T,
  });
}

export const csvHref = (path: string, query: string) => `/v1/reports/${path}?${query}&format=csv`;

/** Seconds as the largest whole units that read at a glance: 45 s, 12 min, 3 h 5 min, 2 d 4 h. */
export function duration(value: number | null): string {
  if (value === null) return '—';
  const s = Math.round(value);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}
