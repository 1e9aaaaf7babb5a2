import type { CustomFieldsTable, DbOrTrx } from '../../platform/db/database.js';
import { badRequest, type FieldError } from '../../platform/http/errors.js';
import { dateOf } from '../../platform/time.js';

export type CustomFieldEntity = 'person' | 'deal';

export interface CustomFieldDefinition {
  id: number;
  name: string;
  label: string;
  type: CustomFieldsTable['type'];
  choices: string[];
}

export async function loadDefinitions(
  db: DbOrTrx,
  accountId: number,
  entity: CustomFieldEntity,
): Promise<CustomFieldDefinition[]> {
  const rows = await db
    .selectFrom('custom_fields')
    .select(['id', 'name', 'label', 'type', 'choices'])
    .where('account_id', '=', accountId)
    .where('entity', '=', entity)
    .orderBy('order_weight')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, choices: JSON.parse(r.choices) as string[] }));
}

export function isCustomKey(key: string): boolean {
  return /^custom[A-Za-z0-9_]*$/.test(key);
}

function checkValue(
  field: CustomFieldDefinition,
  value: unknown,
): { value: unknown } | { error: string } {
  switch (field.type) {
    case 'text':
      if (typeof value === 'string' || typeof value === 'number') return { value: String(value) };
      return { error: 'must be text' };
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n === 'number' && Number.isFinite(n)) return { value: n };
      return { error: 'must be a number' };
    }
    case 'date':
      if (typeof value === 'string' && dateOf(value) !== null) return { value: dateOf(value) };
      return { error: 'must be a date (YYYY-MM-DD)' };
    case 'dropdown':
      if (typeof value === 'string' && field.choices.includes(value)) return { value };
      return { error: `must be one of: ${field.choices.join(', ')}` };
  }
}

/**
 * Picks the `custom…` keys out of a body, checks each against the account's definitions and
 * returns the stored values with the changes applied (null deletes a value).
 */
export function applyCustomValues(
  current: Record<string, unknown>,
  body: Record<string, unknown>,
  definitions: CustomFieldDefinition[],
): Record<string, unknown> {
  const next = { ...current };
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (!isCustomKey(key)) continue;
    const field = definitions.find((d) => d.name === key);
    if (!field) {
      errors.push({
        field: key,
        message: `Unknown custom field '${key}'; define it with POST /v1/customFields first`,
      });
      continue;
    }
    if (value === null || value === '') {
      delete next[key];
      continue;
    }
    const checked = checkValue(field, value);
    if ('error' in checked)
      errors.push({ field: key, message: `Custom field '${key}' ${checked.error}` });
    else next[key] = checked.value;
  }
  if (errors.length) throw badRequest(errors.map((e) => e.message).join('; '), errors);
  return next;
}

export function hasCustomKeys(body: Record<string, unknown>): boolean {
  return Object.keys(body).some(isCustomKey);
}
