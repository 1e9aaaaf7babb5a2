import { request } from 'undici';
import type { AppContext } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import { idleJob, type BackgroundJobFactory } from '../../platform/jobs/types.js';
import { isoSeconds } from '../../platform/time.js';
import { enqueueJob, PermanentJobError } from '../../platform/jobs/queue.js';
import { queueWorker } from '../../platform/jobs/queue-worker.js';
import './enrichment.tables.js';

export const ENRICHMENT_JOB = 'enrichment';

/** Retries of a failed look-up: 30 s, 2 min, 10 min, 30 min, 1 h, then it is given up. */
export const ENRICHMENT_RETRY_SCHEDULE = [30, 120, 600, 1800, 3600];

/** Queues a social-profile look-up for a new person when HEARTH_ENRICHMENT_URL is set; otherwise does nothing. */
export async function queueEnrichment(
  trx: Trx,
  ctx: AppContext,
  accountId: number,
  personId: number,
): Promise<void> {
  if (!ctx.config.enrichmentUrl) return;
  await enqueueJob(ctx, trx, { accountId, kind: ENRICHMENT_JOB, payload: { personId } });
}

export interface SocialProfile {
  network: string;
  url: string;
}

/** Pure: the well-formed profiles of a provider's answer ({profiles: [{network, url}]}); others are dropped. */
export function readProfiles(answer: unknown): SocialProfile[] {
  const list = (answer as { profiles?: unknown })?.profiles;
  if (!Array.isArray(list))
    throw new PermanentJobError('enrichment provider answered without a profiles array');
  const seen = new Set<string>();
  const out: SocialProfile[] = [];
  for (const item of list) {
    const network = typeof item?.network === 'string' ? item.network.trim().slice(0, 100) : '';
    const url = typeof item?.url === 'string' ? item.url.trim() : '';
    if (!network || url.length > 2000 || !/^https?:\/\/\S+$/i.test(url)) continue;
    const key = `${network.toLowerCase()} ${url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ network, url });
  }
  return out;
}

/**
 * The enrichment extension point: POSTs {personId, emails, phones} to HEARTH_ENRICHMENT_URL and
 * stores the profile links it returns. 5xx, 408, 429 and network errors are retried with backoff;
 * other 4xx answers fail the job at once.
 */
export const enrichmentJob: BackgroundJobFactory = (ctx: AppContext) => {
  const url = ctx.config.enrichmentUrl;
  if (!url) return idleJob('enrichment');
  const timeoutMs = ctx.config.webhookTimeout * 1000;
  return queueWorker(ctx, {
    name: 'enrichment',
    kind: ENRICHMENT_JOB,
    retrySchedule: ENRICHMENT_RETRY_SCHEDULE,
    async handle(job) {
      const { personId } = JSON.parse(job.payload) as { personId: number };
      const person = await ctx.db
        .selectFrom('people')
        .select(['id', 'emails', 'phones'])
        .where('account_id', '=', job.account_id)
        .where('id', '=', personId)
        .executeTakeFirst();
      if (!person) return; // deleted since: nothing to enrich
      const emails = (JSON.parse(person.emails) as { value: string }[]).map((e) => e.value);
      const phones = (JSON.parse(person.phones) as { value: string }[]).map((p) => p.value);
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ personId, emails, phones }),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await res.body.text();
      if (res.statusCode >= 300) {
        const message = `enrichment provider answered ${res.statusCode}`;
        const retryable = res.statusCode >= 500 || res.statusCode === 408 || res.statusCode === 429;
        throw retryable ? new Error(message) : new PermanentJobError(message);
      }
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        throw new PermanentJobError('enrichment provider answered with invalid JSON');
      }
      const profiles = readProfiles(answer);
      if (profiles.length === 0) return;
      const at = isoSeconds(ctx.clock.now());
      await ctx.db
        .insertInto('person_social_profiles')
        .values(
          profiles.map((p) => ({
            account_id: job.account_id,
            person_id: personId,
            network: p.network,
            url: p.url,
            created_at: at,
          })),
        )
        .onConflict((oc) => oc.columns(['person_id', 'network', 'url']).doNothing())
        .execute()
        .catch((err: { code?: string }) => {
          // The person was deleted while we waited for the provider.
          if (err?.code === '23503' || err?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return;
          throw err;
        });
    },
  });
};
