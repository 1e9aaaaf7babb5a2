import type { Db } from '../../platform/db/database.js';
import { isoSeconds } from '../../platform/time.js';
import { CONTEXTS, isContextName, isTier, TIERS, type StoredOverride } from './limits.js';
import './rateLimit.tables.js';

export async function loadOverrides(db: Db): Promise<StoredOverride[]> {
  const rows = await db
    .selectFrom('rate_limit_overrides')
    .select(['system', 'tier', 'context', 'limit_value'])
    .execute();
  return rows.map((r) => ({
    system: r.system,
    tier: r.tier,
    context: r.context,
    limit: r.limit_value === null ? null : Number(r.limit_value),
  }));
}

export class RateLimitCommandError extends Error {}

export interface SetRateLimitInput {
  context: string;
  /** a whole number, `unlimited`, or `default` (removes the override) */
  limit: string;
  system?: string;
  tier?: string;
}

export interface SetRateLimitResult {
  rateLimit: {
    context: string;
    limit: number | null;
    system: string | null;
    tier: string | null;
    removed?: boolean;
  };
}

/**
 * `admin set-rate-limit --context X --limit N|unlimited|default [--system S] [--tier withSystemKey|withoutSystemKey]`.
 * Stores an operator override; running servers pick it up within a few seconds (they reload
 * overrides on every usage flush). `--system` without `--tier` applies to that system's requests
 * made with its valid key.
 */
export async function setRateLimit(
  db: Db,
  input: SetRateLimitInput,
  now = Date.now(),
): Promise<SetRateLimitResult> {
  if (!input.context || !isContextName(input.context)) {
    throw new RateLimitCommandError(`--context must be one of: ${CONTEXTS.join(', ')}`);
  }
  const tier = input.tier ?? '';
  if (tier && !isTier(tier))
    throw new RateLimitCommandError(`--tier must be ${TIERS.join(' or ')}`);
  const system = (input.system ?? '').trim();
  if (input.system !== undefined && !system)
    throw new RateLimitCommandError('--system must not be empty');
  if (system.length > 100)
    throw new RateLimitCommandError('--system must be at most 100 characters');
  const raw = (input.limit ?? '').trim();
  const scope = { system: system || null, tier: tier || null, context: input.context };
  if (raw === 'default') {
    await db
      .deleteFrom('rate_limit_overrides')
      .where('system', '=', system)
      .where('tier', '=', tier)
      .where('context', '=', input.context)
      .execute();
    return { rateLimit: { ...scope, limit: null, removed: true } };
  }
  let limit: number | null;
  if (raw === 'unlimited') limit = null;
  else if (/^\d+$/.test(raw) && Number(raw) <= 1_000_000_000) limit = Number(raw);
  else
    throw new RateLimitCommandError(
      '--limit must be a whole number (0 to 1000000000), "unlimited" or "default"',
    );
  const updated = isoSeconds(now);
  await db
    .insertInto('rate_limit_overrides')
    .values({ system, tier, context: input.context, limit_value: limit, updated_at: updated })
    .onConflict((oc) =>
      oc
        .columns(['system', 'tier', 'context'])
        .doUpdateSet({ limit_value: limit, updated_at: updated }),
    )
    .execute();
  return { rateLimit: { ...scope, limit } };
}
