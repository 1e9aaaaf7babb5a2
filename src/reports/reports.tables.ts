/** Records per (account, UTC day, user, kind): migration 0410, kept by 0411's triggers. */
export interface ReportActivityDaysTable {
  account_id: number;
  /** YYYY-MM-DD, UTC */
  day: string;
  user_id: number;
  kind: string;
  n: number | string;
}

/** A person as the lead reports read them: migration 0410, kept by 0411's triggers. */
export interface ReportLeadsTable {
  person_id: number;
  account_id: number;
  created_at: string;
  user_id: number | null;
  lender_id: number | null;
  source: string;
  /** the first outgoing call, text message or email at or after created_at */
  first_contact_at: string | null;
  /** seconds from created_at to first_contact_at */
  contact_seconds: number | string | null;
  /** appointments inviting the person */
  invitations: number;
  /** deals holding the person, Deleted ones included (the reports leave those out) */
  deal_links: number;
}

declare module '../platform/db/extension-tables.js' {
  interface ExtensionTables {
    report_activity_days: ReportActivityDaysTable;
    report_leads: ReportLeadsTable;
  }
}

/** Leads per (account, UTC day of created, agent, lender, source): migration 0470. */
export interface ReportLeadDaysTable {
  account_id: number;
  day: string;
  /** 0: no agent */
  user_id: number;
  /** 0: no lender */
  lender_id: number;
  source: string;
  leads: number | string;
  contacted: number | string;
  invited: number | string;
}

/** Contacted leads per (account, day, agent, bucket of contact_seconds): migration 0470. */
export interface ReportContactDaysTable {
  account_id: number;
  day: string;
  user_id: number;
  bucket: number;
  n: number | string;
}

declare module '../platform/db/extension-tables.js' {
  interface ExtensionTables {
    report_lead_days: ReportLeadDaysTable;
    report_contact_days: ReportContactDaysTable;
  }
}
