import type { AnyDb, DialectName } from '../dialect.js';
import * as foundation from './0001_foundation.js';
import * as timeline from './0010_timeline.js';
import * as leads from './0020_leads.js';
import * as actionPlans from './0030_action_plans.js';
import * as pipelinesDeals from './0040_pipelines_deals.js';
import * as webhooks from './0050_webhooks.js';
import * as rateLimits from './0060_rate_limits.js';
import * as oauth from './0070_oauth.js';
import * as emailMarketing from './0080_email_marketing.js';
import * as smartLists from './0100_smart_lists.js';
import * as usersByRole from './0110_users_by_role.js';
import * as appointmentTypes from './0120_appointment_types.js';

export interface HearthMigration {
  up(db: AnyDb, dialect: DialectName): Promise<void>;
}

/**
 * Every migration, by name; names sort in the order they run. Migrations are frozen once
 * they have landed: change the schema with a new one.
 */
export const migrations: Record<string, HearthMigration> = {
  '0001_foundation': foundation,
  '0010_timeline': timeline,
  '0020_leads': leads,
  '0030_action_plans': actionPlans,
  '0040_pipelines_deals': pipelinesDeals,
  '0050_webhooks': webhooks,
  '0060_rate_limits': rateLimits,
  '0070_oauth': oauth,
  '0080_email_marketing': emailMarketing,
  '0100_smart_lists': smartLists,
  '0110_users_by_role': usersByRole,
  '0120_appointment_types': appointmentTypes,
};
