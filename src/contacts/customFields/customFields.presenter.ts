import type { CustomFieldRow } from './customFields.repo.js';

export function presentCustomField(row: CustomFieldRow) {
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    type: row.type,
    choices: JSON.parse(row.choices) as string[],
    orderWeight: row.order_weight,
    hideIfEmpty: row.hide_if_empty === 1,
    // As the real API: set and answered for date fields only.
    ...(row.type === 'date' ? { isRecurring: row.is_recurring === 1 } : {}),
    created: row.created_at,
    updated: row.updated_at,
  };
}
