import type { DbOrTrx } from '../../platform/db/database.js';

/** How many campaigns a person's campaign-email history shows, newest first. */
const MAX_CAMPAIGNS = 100;

export interface CampaignEmailOfPerson {
  campaignId: number;
  campaignName: string;
  origin: string;
  /** The built-in send's outcome for this person (sent, skipped, dropped, ...); null if none. */
  status: string | null;
  reason: string;
  sentAt: string | null;
  /** Every event of this campaign for the person, built-in and third-party, oldest first. */
  events: { type: string; occurred: string; url: string; system: string }[];
}

/**
 * The campaign emails a person got and what they did with them: built-in sends (with their
 * outcome) and third-party campaigns (known from their events), newest activity first.
 */
export async function campaignEmailsOf(
  db: DbOrTrx,
  accountId: number,
  personId: number,
): Promise<CampaignEmailOfPerson[]> {
  const sends = await db
    .selectFrom('em_send_recipients as r')
    .innerJoin('em_sends as s', 's.id', 'r.send_id')
    .select(['s.campaign_id', 'r.status', 'r.reason', 'r.sent_at', 's.send_at'])
    .where('r.account_id', '=', accountId)
    .where('r.person_id', '=', personId)
    .orderBy('r.send_id', 'desc')
    .limit(MAX_CAMPAIGNS)
    .execute();
  const events = await db
    .selectFrom('em_events')
    .select(['campaign_id', 'type', 'occurred_at', 'url', 'system'])
    .where('account_id', '=', accountId)
    .where('person_id', '=', personId)
    .orderBy('occurred_at')
    .orderBy('id')
    .limit(5000)
    .execute();
  const byCampaign = new Map<number, CampaignEmailOfPerson>();
  const entry = (campaignId: number) => {
    let item = byCampaign.get(campaignId);
    if (!item) {
      item = {
        campaignId,
        campaignName: '',
        origin: '',
        status: null,
        reason: '',
        sentAt: null,
        events: [],
      };
      byCampaign.set(campaignId, item);
    }
    return item;
  };
  for (const send of sends) {
    const item = entry(send.campaign_id);
    if (item.status !== null) continue; // the latest send of a campaign speaks for it
    Object.assign(item, { status: send.status, reason: send.reason, sentAt: send.sent_at });
  }
  for (const e of events)
    entry(e.campaign_id).events.push({
      type: e.type,
      occurred: e.occurred_at,
      url: e.url,
      system: e.system,
    });
  const ids = [...byCampaign.keys()];
  if (ids.length === 0) return [];
  const campaigns = await db
    .selectFrom('em_campaigns')
    .select(['id', 'name', 'origin'])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  for (const c of campaigns)
    Object.assign(byCampaign.get(c.id)!, { campaignName: c.name, origin: c.origin });
  const latest = (item: CampaignEmailOfPerson) => item.events.at(-1)?.occurred ?? item.sentAt ?? '';
  return [...byCampaign.values()]
    .sort((a, b) => latest(b).localeCompare(latest(a)) || b.campaignId - a.campaignId)
    .slice(0, MAX_CAMPAIGNS);
}
