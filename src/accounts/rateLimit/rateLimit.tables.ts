import type { Generated } from 'kysely';

/** Hourly request counts per system and context; written by the periodic flush, never per request. */
export interface RateLimitUsageTable {
  system: string;
  context: string;
  /** Start of the hour, ISO 8601 UTC: 2026-01-31T12:00:00Z */
  hour: string;
  total: number;
  limited: number;
}

/** Operator overrides set with `admin set-rate-limit`; '' in system/tier means "every system"/"both tiers". */
export interface RateLimitOverridesTable {
  id: Generated<number>;
  system: string;
  tier: string;
  context: string;
  /** null: unlimited */
  limit_value: number | null;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    rate_limit_usage: RateLimitUsageTable;
    rate_limit_overrides: RateLimitOverridesTable;
  }
}
