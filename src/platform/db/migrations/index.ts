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
import * as pondsTeams from './0130_ponds_teams.js';
import * as peopleListIndexes from './0140_people_list_indexes.js';
import * as peopleSearch from './0140_b_people_search.js';
import * as sessions from './0150_a_sessions.js';
import * as invites from './0150_b_invites.js';
import * as textTemplates from './0160_a_text_templates.js';
import * as personTimeframe from './0160_b_person_timeframe.js';
import * as leadClaims from './0160_c_lead_claims.js';
import * as personAttachments from './0160_d_person_attachments.js';
import * as campaignSending from './0180_campaign_sending.js';
import * as imports from './0190_imports.js';
import * as campaignSendCancel from './0200_a_campaign_send_cancel.js';
import * as peopleSearchText from './0270_people_search_text.js';
import * as importDateFormat from './0290_import_date_format.js';
import * as inboxApps from './0220_inbox_apps.js';
import * as inboxMessageAttachments from './0280_inbox_message_attachments.js';
import * as dailyListIndexes from './0310_daily_list_indexes.js';
import * as personChanges from './0430_person_changes.js';
import * as peopleAccountStage from './0330_people_account_stage.js';
import * as emEventCounts from './0340_em_event_counts.js';
import * as automations from './0440_automations.js';
import * as clientFields from './0441_client_fields.js';
import * as customFieldRecurring from './0495_custom_field_recurring.js';
import * as bulkActions from './0480_bulk_actions.js';
import * as dealOutcomes from './0481_deal_outcomes.js';
import * as importValues from './0482_import_values.js';
import * as reportDealsIndex from './0540_report_deals_index.js';
import * as reportCounters from './0410_report_counters.js';
import * as reportTriggers from './0411_report_triggers.js';
import * as reportLeadDays from './0470_report_lead_days.js';
import * as emEventDays from './0471_em_event_days.js';
import * as mcp from './0420_mcp.js';
import * as unreadNotificationsIndex from './0550_unread_notifications_index.js';
import * as inboundRawRetention from './0465_inbound_raw_retention.js';
import * as idempotencyKeys from './0170_idempotency_keys.js';
import * as pendingDeliveryIndex from './0170_b_pending_delivery_index.js';
import * as inboundEmail from './0400_inbound_email.js';
import * as mailboxes from './0450_mailboxes.js';

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
  '0130_ponds_teams': pondsTeams,
  '0140_people_list_indexes': peopleListIndexes,
  '0140_b_people_search': peopleSearch,
  '0150_a_sessions': sessions,
  '0150_b_invites': invites,
  '0160_a_text_templates': textTemplates,
  '0160_b_person_timeframe': personTimeframe,
  '0160_c_lead_claims': leadClaims,
  '0160_d_person_attachments': personAttachments,
  '0170_idempotency_keys': idempotencyKeys,
  '0170_b_pending_delivery_index': pendingDeliveryIndex,
  '0180_campaign_sending': campaignSending,
  '0190_imports': imports,
  '0200_a_campaign_send_cancel': campaignSendCancel,
  '0270_people_search_text': peopleSearchText,
  '0220_inbox_apps': inboxApps,
  '0280_inbox_message_attachments': inboxMessageAttachments,
  '0290_import_date_format': importDateFormat,
  '0310_daily_list_indexes': dailyListIndexes,
  '0330_people_account_stage': peopleAccountStage,
  '0340_em_event_counts': emEventCounts,
  '0400_inbound_email': inboundEmail,
  '0440_automations': automations,
  '0441_client_fields': clientFields,
  '0495_custom_field_recurring': customFieldRecurring,
  '0410_report_counters': reportCounters,
  '0411_report_triggers': reportTriggers,
  '0470_report_lead_days': reportLeadDays,
  '0471_em_event_days': emEventDays,
  '0430_person_changes': personChanges,
  '0420_mcp': mcp,
  '0465_inbound_raw_retention': inboundRawRetention,
  '0480_bulk_actions': bulkActions,
  '0481_deal_outcomes': dealOutcomes,
  '0482_import_values': importValues,
  '0540_report_deals_index': reportDealsIndex,
  '0450_mailboxes': mailboxes,
  '0550_unread_notifications_index': unreadNotificationsIndex,
};
