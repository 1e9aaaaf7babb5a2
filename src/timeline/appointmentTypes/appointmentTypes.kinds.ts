/**
 * Appointment types and appointment outcomes behave alike: a named, ordered list per account that
 * appointments point at. One kind describes where each list lives and how the API names it.
 */
export interface LabelKind {
  /** the list's table */
  table: 'appointment_types' | 'appointment_outcomes';
  /** the column on appointments that names a record of the list */
  column: 'type_id' | 'outcome_id';
  /** that column's name in appointment bodies */
  field: 'typeId' | 'outcomeId';
  /** the delete parameter naming where the appointments go */
  assignParam: 'assignTypeId' | 'assignOutcomeId';
  path: '/v1/appointmentTypes' | '/v1/appointmentOutcomes';
  /** the envelope key: lower-cased, as the real service does (compat notes) */
  collection: 'appointmenttypes' | 'appointmentoutcomes';
  noun: 'appointment type' | 'appointment outcome';
  tag: 'appointmentTypes' | 'appointmentOutcomes';
}

export const APPOINTMENT_TYPES: LabelKind = {
  table: 'appointment_types',
  column: 'type_id',
  field: 'typeId',
  assignParam: 'assignTypeId',
  path: '/v1/appointmentTypes',
  collection: 'appointmenttypes',
  noun: 'appointment type',
  tag: 'appointmentTypes',
};

export const APPOINTMENT_OUTCOMES: LabelKind = {
  table: 'appointment_outcomes',
  column: 'outcome_id',
  field: 'outcomeId',
  assignParam: 'assignOutcomeId',
  path: '/v1/appointmentOutcomes',
  collection: 'appointmentoutcomes',
  noun: 'appointment outcome',
  tag: 'appointmentOutcomes',
};

export const capitalized = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);
