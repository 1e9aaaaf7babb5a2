import { sql } from 'kysely';
import type { DbOrTrx } from '../platform/db/database.js';
import { isoSeconds } from '../platform/time.js';
import type { ReportFilters } from './reports.filters.js';
import type { Period } from './reports.period.js';
import '../marketing/emEvents/emEvents.tables.js';
import '../marketing/emCampaigns/emCampaigns.tables.js';

/** The report's figures and the event types behind each, as the campaign statistics count them. */
export const CAMPAIGN_FIGURES = {
  sends: ['delivered'],
  opens: ['open'],
  clicks: ['click'],
  unsubscribes: ['unsubscribe'],
  bounces: ['bounced', 'soft-bounce', 'hard-bounce'],
} as const;

type Figure = keyof typeof CAMPAIGN_FIGURES;
type Figures = Record<Figure, number>;

const FIGURE_OF = new Map<string, Figure>(
  Object.entries(CAMPAIGN_FIGURES).flatMap(([figure, types]) =>
    types.map((t) => [t, figure as Figure]),
  ),
);
const empty = (): Figures => ({ sends: 0, opens: 0, clicks: 0, unsubscribes: 0, bounces: 0 });

/**
 * The UTC days a period covers for the day counters: from since's day to the day of its last
 * second (a period starting or ending mid-day counts those days whole).
 */
export function daysOf(period: Period) {
  return { from: period.since.slice(0, 10), to: isoSeconds(period.untilMs - 1000).slice(0, 10) };
}

/**
 * Sends, opens, clicks, unsubscribes and bounces in a period, per campaign and per day, built-in
 * and third-party campaigns together, from em_event_days (never the events). An Agent's or a
 * Lender's (and a userId or team filter) are the events of the emails their users sent.
 */
export async function campaignsReport(
  db: DbOrTrx,
  f: ReportFilters,
  period: Period,
  campaignId: number | undefined,
) {
  const days = daysOf(period);
  let query = db
    .selectFrom('em_event_days as d')
    .innerJoin('em_campaigns as c', 'c.id', 'd.campaign_id')
    .select([
      'd.day',
      'd.campaign_id',
      'c.name',
      'c.origin',
      'd.type',
      sql<number | string>`sum(d.events)`.as('events'),
    ])
    .where('d.account_id', '=', f.accountId)
    .where('d.day', '>=', days.from)
    .where('d.day', '<=', days.to)
    .where('d.type', 'in', [...FIGURE_OF.keys()]);
  if (f.userIds !== null)
    query =
      f.userIds.length === 0
        ? query.where(sql<boolean>`false`)
        : query.where('d.user_id', 'in', f.userIds);
  if (campaignId !== undefined) query = query.where('d.campaign_id', '=', campaignId);
  const rows = await query
    .groupBy(['d.day', 'd.campaign_id', 'c.name', 'c.origin', 'd.type'])
    .execute();

  const campaigns = new Map<
    number,
    { campaignId: number; name: string; origin: string } & Figures
  >();
  const byDay = new Map<string, { day: string } & Figures>();
  for (const r of rows) {
    const figure = FIGURE_OF.get(r.type)!;
    const n = Number(r.events);
    const campaign = campaigns.get(r.campaign_id) ?? {
      campaignId: r.campaign_id,
      name: r.name,
      origin: r.origin,
      ...empty(),
    };
    campaign[figure] += n;
    campaigns.set(r.campaign_id, campaign);
    const day = byDay.get(r.day) ?? { day: r.day, ...empty() };
    day[figure] += n;
    byDay.set(r.day, day);
  }
  const nonZero = (x: Figures) => Object.keys(CAMPAIGN_FIGURES).some((k) => x[k as Figure] !== 0);
  return {
    since: period.since,
    until: period.until,
    campaigns: [...campaigns.values()]
      .filter(nonZero)
      .sort(
        (a, b) => b.sends - a.sends || a.name.localeCompare(b.name) || a.campaignId - b.campaignId,
      ),
    byDay: [...byDay.values()].filter(nonZero).sort((a, b) => (a.day < b.day ? -1 : 1)),
  };
}
