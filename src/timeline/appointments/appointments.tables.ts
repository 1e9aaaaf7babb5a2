import type { ColumnType, Generated } from 'kysely';
import type { Flag } from '../../platform/db/database.js';

export interface AppointmentsTable {
  id: Generated<number>;
  account_id: number;
  title: string;
  start_at: string;
  end_at: string;
  all_day: Flag;
  description: string;
  location: string;
  /** an appointment_types row of the account, or none */
  type_id: number | null;
  /** an appointment_outcomes row of the account, or none (added after the table: optional on insert) */
  outcome_id: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * 'hearth': created through this API (fires appointment* events). Anything else names a
   * calendar it was synced from; no sync exists yet, and synced appointments fire no events
   * (interface rule 4), so a future calendar sync inserts rows with its own origin.
   */
  origin: string;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface AppointmentInviteesTable {
  id: Generated<number>;
  account_id: number;
  appointment_id: number;
  user_id: number | null;
  person_id: number | null;
  email: string | null;
  name: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    appointments: AppointmentsTable;
    appointment_invitees: AppointmentInviteesTable;
  }
}
