import type { Generated } from 'kysely';

/**
 * Appointment types and appointment outcomes: two per-account lists of names with the same shape.
 * An appointment names one of each (appointments.type_id, appointments.outcome_id), or none.
 */
export interface AppointmentLabelsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  order_weight: number;
  created_at: string;
  updated_at: string;
}

declare module '../../platform/db/extension-tables.js' {
  interface ExtensionTables {
    appointment_types: AppointmentLabelsTable;
    appointment_outcomes: AppointmentLabelsTable;
  }
}
