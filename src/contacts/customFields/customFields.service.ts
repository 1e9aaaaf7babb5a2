import type { Static } from '@sinclair/typebox';
import type { Db, Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { toBool } from '../../platform/http/schemas.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import type { EventName } from '../../accounts/webhooks/event-names.js';
import type { CustomFieldEntity } from './customFields.values.js';
import type { CustomFieldCreateBody, CustomFieldUpdateBody } from './customFields.schemas.js';
import {
  type CustomFieldRow,
  deleteCustomField,
  findCustomField,
  insertCustomField,
  keysStartingWith,
  removeCustomValues,
  updateCustomField,
} from './customFields.repo.js';

/** One record kind's custom fields: where their values live and the events their changes fire. */
export interface CustomFieldKind {
  entity: CustomFieldEntity;
  /** the table whose `custom` JSON column holds the values, cleaned when a definition is deleted */
  valuesTable: string;
  events: { created: EventName; updated: EventName; deleted: EventName };
}

/** customClosingDate from "Closing date". */
function keyFromLabel(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const camel = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return `custom${camel || 'Field'}`;
}

async function uniqueKey(
  trx: Trx,
  accountId: number,
  entity: CustomFieldEntity,
  label: string,
): Promise<string> {
  const base = keyFromLabel(label);
  const taken = await keysStartingWith(trx, accountId, entity, base);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

/** isRecurring means something on a date only; false is accepted anywhere (clients send it). */
function checkRecurring(type: string, isRecurring: boolean | number | string | undefined): void {
  if (type !== 'date' && toBool(isRecurring))
    throw badRequest(`isRecurring is for date fields only (this one is ${type})`);
}

export function checkChoices(type: string, choices: string[] | undefined): void {
  if (type === 'dropdown' && (!choices || choices.length === 0))
    throw badRequest("A dropdown field needs 'choices'");
  if (type !== 'dropdown' && choices && choices.length > 0)
    throw badRequest("Only dropdown fields take 'choices'");
}

async function lockCustomField(trx: Trx, accountId: number, kind: CustomFieldKind, id: number) {
  const row = await findCustomField(trx, accountId, kind.entity, id);
  if (!row) throw notFound('Custom field');
  return row;
}

export function createCustomField(
  db: Db,
  kind: CustomFieldKind,
  accountId: number,
  body: Static<typeof CustomFieldCreateBody>,
  at: string,
): Promise<CustomFieldRow> {
  checkChoices(body.type, body.choices);
  checkRecurring(body.type, body.isRecurring);
  return db.transaction().execute(async (trx) => {
    const created = await insertCustomField(trx, {
      account_id: accountId,
      entity: kind.entity,
      name: await uniqueKey(trx, accountId, kind.entity, body.label),
      label: body.label.trim(),
      type: body.type,
      choices: JSON.stringify(body.choices ?? []),
      order_weight: body.orderWeight ?? 0,
      hide_if_empty: toBool(body.hideIfEmpty) ? 1 : 0,
      is_recurring: toBool(body.isRecurring) ? 1 : 0,
      created_at: at,
      updated_at: at,
    });
    await emit(trx, accountId, kind.events.created, [created.id]);
    return created;
  });
}

/** Changes a definition; an update that changes nothing fires no event. The type never changes. */
export function changeCustomField(
  db: Db,
  kind: CustomFieldKind,
  accountId: number,
  id: number,
  body: Static<typeof CustomFieldUpdateBody>,
  at: string,
): Promise<CustomFieldRow> {
  return db.transaction().execute(async (trx) => {
    const row = await lockCustomField(trx, accountId, kind, id);
    if (body.type !== undefined && body.type !== row.type)
      throw badRequest(`The type of a custom field cannot change (it is ${row.type})`);
    // Only choices sent are checked: a label-only update of a dropdown keeps its choices.
    if (body.choices !== undefined) checkChoices(row.type, body.choices);
    checkRecurring(row.type, body.isRecurring);
    const changes = {
      label: body.label?.trim() ?? row.label,
      choices: body.choices ? JSON.stringify(body.choices) : row.choices,
      order_weight: body.orderWeight ?? row.order_weight,
      hide_if_empty:
        body.hideIfEmpty === undefined ? row.hide_if_empty : toBool(body.hideIfEmpty) ? 1 : 0,
      is_recurring:
        body.isRecurring === undefined ? row.is_recurring : toBool(body.isRecurring) ? 1 : 0,
    };
    const changed = (Object.keys(changes) as (keyof typeof changes)[]).some(
      (k) => changes[k] !== row[k],
    );
    if (!changed) return row;
    const updated = await updateCustomField(trx, row.id, { ...changes, updated_at: at });
    await emit(trx, accountId, kind.events.updated, [row.id]);
    return updated;
  });
}

/** Deletes a definition and its stored values, so a later field of the same name starts empty. */
export function removeCustomField(
  db: Db,
  dialect: DialectName,
  kind: CustomFieldKind,
  accountId: number,
  id: number,
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const row = await lockCustomField(trx, accountId, kind, id);
    await deleteCustomField(trx, row.id);
    await removeCustomValues(trx, dialect, kind.valuesTable, accountId, row.name);
    await emit(trx, accountId, kind.events.deleted, [row.id]);
  });
}
