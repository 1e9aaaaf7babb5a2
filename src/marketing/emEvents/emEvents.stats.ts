import { type Static } from '@sinclair/typebox';
import type { DbOrTrx } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/http/auth-user.js';
import type { EmStats } from './emEvents.schemas.js';
import type { EmCounts } from './emEvents.types.js';
import type { EmEventFilters } from './emEvents.repo.js';
import { countedEmEvents, countedEmEventsOfPeople } from './emEvents.counts.js';
import { seesWholeAccount } from '../../access/roles.js';

export type EmStatistics = Static<typeof EmStats>;

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
 * whichever system recorded them: built-in and third-party combined, read from the counters kept
 * with every insert (emEvents.counts.ts), never from the events themselves. Owner and Admin, who
 * see every event of the account, read a few rows per campaign; Agents and Lenders, and one
 * person's statistics, read a row per person and type of the people seen.
 */
export async function emStatistics(
  db: DbOrTrx,
  auth: AuthUser,
  filters: Pick<EmEventFilters, 'campaignId' | 'personId'>,
): Promise<EmStatistics> {
  const { campaignId, personId } = filters;
  if (seesWholeAccount(auth) && personId === undefined)
    return statisticsFrom(await countedEmEvents(db, auth.accountId, campaignId));
  return statisticsFrom(await countedEmEventsOfPeople(db, auth, { campaignId, personId }));
}
