import type { RateLimitOverrides } from '../../platform/config.js';

/** Rate-limit contexts; every /v1 endpoint belongs to exactly one. Index order is used by the hot path. */
export const CONTEXTS = [
  'global',
  'POST.events',
  'events',
  'PUT.people',
  'notes',
  'PUT.notes',
] as const;
export type ContextName = (typeof CONTEXTS)[number];

export const GLOBAL = 0;
export const POST_EVENTS = 1;
export const EVENTS = 2;
export const PUT_PEOPLE = 3;
export const NOTES = 4;
export const PUT_NOTES = 5;

export const TIERS = ['withSystemKey', 'withoutSystemKey'] as const;
export type Tier = (typeof TIERS)[number];

/** Seconds of the sliding window. */
export const WINDOW_SECONDS = 10;
export const WINDOW_MS = WINDOW_SECONDS * 1000;

/** A limit per context index; null means unlimited (counted, never refused). */
export type LimitRow = (number | null)[];

/** The interface's defaults (part 8). `notes` exists only with a key, `PUT.notes` only without. */
export const DEFAULT_LIMITS: Record<Tier, Partial<Record<ContextName, number | null>>> = {
  withSystemKey: { global: 250, 'POST.events': null, events: 20, 'PUT.people': 25, notes: 10 },
  withoutSystemKey: {
    global: 125,
    'POST.events': null,
    events: 10,
    'PUT.people': 25,
    'PUT.notes': 10,
  },
};

/** The contexts that exist in a tier (the two tables of the interface). */
export function tierContexts(tier: Tier): ContextName[] {
  return CONTEXTS.filter((c) => c in DEFAULT_LIMITS[tier]);
}

export function isContextName(value: string): value is ContextName {
  return (CONTEXTS as readonly string[]).includes(value);
}

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}

function segmentIs(url: string, prefix: string): boolean {
  return url.length === prefix.length
    ? url === prefix
    : url.startsWith(prefix) && url.charCodeAt(prefix.length) === 47; /* / */
}

/**
 * The context of a request, from its route pattern (or path for unknown routes) and method.
 * All of /v1/notes is `notes` with a valid system key; without one only PUT /v1/notes/:id is
 * `PUT.notes` and the rest of /v1/notes falls under `global`.
 */
export function classify(method: string, route: string, verified: boolean): number {
  if (segmentIs(route, '/v1/events')) {
    if (method === 'POST' && route.length === 10) return POST_EVENTS;
    if (method === 'GET' || method === 'HEAD') return EVENTS;
    return GLOBAL;
  }
  if (method === 'PUT' && route.startsWith('/v1/people/')) return PUT_PEOPLE;
  if (segmentIs(route, '/v1/notes')) {
    if (verified) return NOTES;
    if (method === 'PUT' && route.length > 10) return PUT_NOTES;
  }
  return GLOBAL;
}

/** One override as stored by `admin set-rate-limit`: '' system = every system, '' tier = both tiers. */
export interface StoredOverride {
  system: string;
  tier: string;
  context: string;
  limit: number | null;
}

function rowFrom(
  values: Partial<Record<string, number | null>> | undefined,
  base: LimitRow,
): LimitRow {
  const row = base.slice();
  if (!values) return row;
  for (const [name, limit] of Object.entries(values)) {
    const index = (CONTEXTS as readonly string[]).indexOf(name);
    if (index !== -1 && limit !== undefined) row[index] = limit;
  }
  return row;
}

function defaultsRow(tier: Tier): LimitRow {
  const table = DEFAULT_LIMITS[tier];
  // A context a tier does not define cannot be reached in it; the global limit stands in for safety.
  return CONTEXTS.map((c) => (c in table ? (table[c] as number | null) : (table.global as number)));
}

/**
 * The limits in force, resolved once per configuration change so that a request costs two
 * array reads. Most specific wins: per-system overrides (CLI system+tier, CLI system, config file
 * `systems`) over tier overrides (CLI tier, CLI both tiers, config file tier table) over defaults.
 * Per-system overrides apply to requests that proved the system's identity with its key, unless an
 * operator set one explicitly for the withoutSystemKey tier.
 */
export class LimitTable {
  readonly tiers: [LimitRow, LimitRow];
  private readonly systems = new Map<string, [LimitRow | null, LimitRow | null]>();

  constructor(file: RateLimitOverrides | null, stored: StoredOverride[] = []) {
    const tierRow = (tier: Tier): LimitRow => {
      let row = rowFrom(file?.[tier], defaultsRow(tier));
      row = rowFrom(
        Object.fromEntries(
          stored.filter((o) => !o.system && !o.tier).map((o) => [o.context, o.limit]),
        ),
        row,
      );
      return rowFrom(
        Object.fromEntries(
          stored.filter((o) => !o.system && o.tier === tier).map((o) => [o.context, o.limit]),
        ),
        row,
      );
    };
    this.tiers = [tierRow('withSystemKey'), tierRow('withoutSystemKey')];
    const names = new Set([
      ...Object.keys(file?.systems ?? {}),
      ...stored.filter((o) => o.system).map((o) => o.system),
    ]);
    for (const name of names) {
      const mine = stored.filter((o) => o.system === name);
      const pick = (tier: string) =>
        Object.fromEntries(mine.filter((o) => o.tier === tier).map((o) => [o.context, o.limit]));
      let withKey = rowFrom(file?.systems?.[name], this.tiers[0]);
      withKey = rowFrom(pick(''), withKey);
      withKey = rowFrom(pick('withSystemKey'), withKey);
      const withoutValues = pick('withoutSystemKey');
      const without = Object.keys(withoutValues).length
        ? rowFrom(withoutValues, this.tiers[1])
        : null;
      this.systems.set(name, [withKey, without]);
    }
  }

  /** The limits for a caller: `system` is the claimed system name (or null), `verified` whether its key matched. */
  row(system: string | null, verified: boolean): LimitRow {
    if (system !== null && this.systems.size !== 0) {
      const own = this.systems.get(system);
      if (own) {
        const row = own[verified ? 0 : 1];
        if (row) return row;
      }
    }
    return this.tiers[verified ? 0 : 1];
  }

  /** The limits of one system per tier, for GET /v1/rateLimit/limits (only the contexts of each tier). */
  describe(system: string): Record<Tier, Record<string, number | null>> {
    const out = {} as Record<Tier, Record<string, number | null>>;
    TIERS.forEach((tier, t) => {
      const row = this.row(system, t === 0);
      out[tier] = Object.fromEntries(tierContexts(tier).map((c) => [c, row[CONTEXTS.indexOf(c)]]));
    });
    return out;
  }
}
