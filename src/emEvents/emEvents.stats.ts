import { type Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { AuthUser } from '../http/auth.js';
import type { EmStats } from './emEvents.schemas.js';
import { type EmEventFilters, visibleEmEvents } from './emEvents.repo.js';
import { countedEmEvents } from './emEvents.counts.js';
import { seesWholeAccount } from '../access/roles.js';

export type EmStatistics = Static<typeof EmStats>;

export interface EmCounts {
  /** events per type */
  byType: Record<string, number>;
  /** distinct (campaign, person) pairs per type, for open and click */
  uniqueByType: Record<string, number>;
}

function ratio(numerator: number, denominator: number): number | null {
  if (denominator === 0) return null;
  return Math.round((numerator / denominator) * 10_000) / 10_000;
}

/** Turns raw counts into the statistics the API shows. Pure. */
export function statisticsFrom(counts: EmCounts): EmStatistics {
  const n = (type: string) => counts.byType[type] ?? 0;
  const sends = n('delivered');
  const softBounces = n('soft-bounce');
  const hardBounces = n('hard-bounce');
  const bounces = n('bounced') + softBounces + hardBounces;
  const uniqueOpens = counts.uniqueByType.open ?? 0;
  const uniqueClicks = counts.uniqueByType.click ?? 0;
  const unsubscribes = n('unsubscribe');
  const spamReports = n('spamreport');
  return {
    sends,
    opens: n('open'),
    uniqueOpens,
    clicks: n('click'),
    uniqueClicks,
    bounces,
    softBounces,
    hardBounces,
    unsubscribes,
    spamReports,
    dropped: n('dropped'),
    rates: {
      openRate: ratio(uniqueOpens, sends),
      clickRate: ratio(uniqueClicks, sends),
      clickToOpenRate: ratio(uniqueClicks, uniqueOpens),
      bounceRate: ratio(bounces, sends + bounces),
      unsubscribeRate: ratio(unsubscribes, sends),
      spamReportRate: ratio(spamReports, sends),
    },
  };
}

/**
 * Statistics of the events `auth` may see under `filters` (campaignId and personId narrow them),
 * whichever system recorded them: built-in and third-party combined. Owner and Admin, who see
 * every event of the account, read the counters kept with every insert (emEvents.counts.ts): a
 * few rows, however many events. Agents and Lenders see the events of some people only, and one
 * person's statistics are few rows anyway: those are counted from the events themselves.
 */
export async function emStatistics(
  db: DbOrTrx,
  auth: AuthUser,
  filters: Pick<EmEventFilters, 'campaignId' | 'personId'>,
): Promise<EmStatistics> {
  if (seesWholeAccount(auth) && filters.personId === undefined)
    return statisticsFrom(await countedEmEvents(db, auth.accountId, filters.campaignId));
  return statisticsFrom(await aggregatedEmEvents(db, auth, filters));
}

/** The same counts as the counters keep, read from the events `auth` may see: two aggregates. */
export async function aggregatedEmEvents(
  db: DbOrTrx,
  auth: AuthUser,
  filters: Pick<EmEventFilters, 'campaignId' | 'personId'>,
): Promise<EmCounts> {
  const scope = { campaignId: filters.campaignId, personId: filters.personId };
  const perType = await visibleEmEvents(db, auth, scope)
    .select(['em_events.type', sql<number>`count(*)`.as('n')])
    .groupBy('em_events.type')
    .execute();
  const pairs = visibleEmEvents(db, auth, { ...scope, types: ['open', 'click'] })
    .select(['em_events.type', 'em_events.campaign_id', 'em_events.person_id'])
    .distinct()
    .as('pairs');
  const unique = await db
    .selectFrom(pairs)
    .select(['pairs.type', sql<number>`count(*)`.as('n')])
    .groupBy('pairs.type')
    .execute();
  const counts: EmCounts = { byType: {}, uniqueByType: {} };
  for (const row of perType) counts.byType[row.type] = Number(row.n);
  for (const row of unique) counts.uniqueByType[row.type] = Number(row.n);
  return counts;
}
