import type { Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { badRequest, conflict, notFound } from '../../platform/http/errors.js';
import { lockRow, movedIds, placeByWeight, type Weighted } from '../../contacts/stages/weights.js';
import { emit } from '../../accounts/webhooks/outbox.js';
import { capitalized, type LabelKind } from './appointmentTypes.kinds.js';
import { lockLabel } from './appointmentTypes.repo.js';
import { transactional } from '../../platform/db/transactional.js';

/** Appointments moved by a deletion are announced in batches of this many ids (interface rule 9). */
export const APPOINTMENT_EVENT_BATCH = 100;

const tableOf = (kind: LabelKind) => kind.table as 'appointment_types';

async function siblings(
  trx: Trx,
  kind: LabelKind,
  accountId: number,
): Promise<(Weighted & { name: string })[]> {
  const rows = await trx
    .selectFrom(tableOf(kind))
    .select(['id', 'order_weight', 'name'])
    .where('account_id', '=', accountId)
    .orderBy('order_weight')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, weight: r.order_weight, name: r.name }));
}

function assertNameFree(
  kind: LabelKind,
  all: { id: number; name: string }[],
  name: string,
  exceptId?: number,
): void {
  if (all.some((l) => l.name === name && l.id !== exceptId))
    throw conflict(`An ${kind.noun} named '${name}' already exists`);
}

async function applyWeights(
  trx: Trx,
  kind: LabelKind,
  accountId: number,
  before: Weighted[],
  weights: Map<number, number>,
  targetId: number,
  at: string,
) {
  for (const id of movedIds(before, weights, targetId)) {
    await trx
      .updateTable(tableOf(kind))
      .set({ order_weight: weights.get(id)!, updated_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }
}

/**
 * Creates a type or outcome. Ordering follows the stages rule (see placeByWeight): the list is
 * renumbered 10, 20, 30… around the requested weight; no weight puts it last. The account row is
 * locked (PostgreSQL) so that concurrent changes never renumber from the same snapshot.
 */
async function createLabelIn(
  trx: Trx,
  dialect: DialectName,
  kind: LabelKind,
  accountId: number,
  input: { name: string; orderWeight?: number },
  at: string,
): Promise<number> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const name = input.name.trim();
  const before = await siblings(trx, kind, accountId);
  assertNameFree(kind, before, name);
  // A placeholder id (0) stands for the new record while the order is computed.
  const weights = placeByWeight(before, { id: 0, requested: input.orderWeight });
  const { id } = await trx
    .insertInto(tableOf(kind))
    .values({
      account_id: accountId,
      name,
      order_weight: weights.get(0)!,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await applyWeights(trx, kind, accountId, before, weights, 0, at);
  return id;
}

async function updateLabelIn(
  trx: Trx,
  dialect: DialectName,
  kind: LabelKind,
  accountId: number,
  id: number,
  input: { name?: string; orderWeight?: number },
  at: string,
): Promise<void> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const before = await siblings(trx, kind, accountId);
  const label = before.find((l) => l.id === id);
  if (!label) throw notFound(`${capitalized(kind.noun)} ${id}`);
  const name = input.name?.trim();
  const renamed = name !== undefined && name !== label.name;
  if (renamed) assertNameFree(kind, before, name, id);
  const weights =
    input.orderWeight !== undefined && input.orderWeight !== label.weight
      ? placeByWeight(before, { id, requested: input.orderWeight, previous: label.weight })
      : null;
  const weight = weights?.get(id) ?? label.weight;
  if (!renamed && weight === label.weight && !weights) return;
  await trx
    .updateTable(tableOf(kind))
    .set({ ...(renamed ? { name } : {}), order_weight: weight, updated_at: at })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
  if (weights) await applyWeights(trx, kind, accountId, before, weights, id, at);
}

/**
 * Deletes a type or outcome. The appointments that use it move to `assignId` (required when there
 * are any), and those made in Hearth fire appointmentsUpdated, as a change of typeId/outcomeId on
 * PUT /v1/appointments does (synced ones fire nothing, interface rule 4).
 */
async function deleteLabelIn(
  trx: Trx,
  dialect: DialectName,
  kind: LabelKind,
  accountId: number,
  id: number,
  assignId: number | undefined,
  at: string,
  now: number,
): Promise<void> {
  await lockRow(trx, dialect, 'accounts', accountId);
  const all = await siblings(trx, kind, accountId);
  const label = all.find((l) => l.id === id);
  if (!label) throw notFound(`${capitalized(kind.noun)} ${id}`);
  await lockLabel(trx, dialect, kind, id);
  let target: (typeof all)[number] | undefined;
  if (assignId !== undefined) {
    target = all.find((l) => l.id === assignId);
    if (!target)
      throw badRequest(`${kind.assignParam}: no ${kind.noun} ${assignId} in this account`, [
        { field: kind.assignParam, message: `unknown ${kind.noun}` },
      ]);
    if (target.id === id) {
      throw badRequest(
        `${kind.assignParam} must name a different ${kind.noun} than the one being deleted`,
        [{ field: kind.assignParam, message: `same ${kind.noun}` }],
      );
    }
  }
  const used = await trx
    .selectFrom('appointments')
    .select(['id', 'origin'])
    .where('account_id', '=', accountId)
    .where(kind.column, '=', id)
    .orderBy('id')
    .execute();
  if (used.length > 0) {
    if (!target) {
      throw badRequest(
        `${capitalized(kind.noun)} '${label.name}' is used by ${used.length} appointment${used.length === 1 ? '' : 's'}; pass ${kind.assignParam} (query or body) naming another ${kind.noun} to move them to`,
        [{ field: kind.assignParam, message: `required when appointments use the ${kind.noun}` }],
      );
    }
    const moved = kind.column === 'type_id' ? { type_id: target.id } : { outcome_id: target.id };
    await trx
      .updateTable('appointments')
      .set({ ...moved, updated_at: at })
      .where('account_id', '=', accountId)
      .where(kind.column, '=', id)
      .execute();
    const announced = used.filter((a) => a.origin === 'hearth').map((a) => a.id);
    for (let i = 0; i < announced.length; i += APPOINTMENT_EVENT_BATCH) {
      await emit(
        trx,
        accountId,
        'appointmentsUpdated',
        announced.slice(i, i + APPOINTMENT_EVENT_BATCH),
        undefined,
        now,
      );
    }
  }
  await trx
    .deleteFrom(tableOf(kind))
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export const createLabel = transactional(createLabelIn);
export const updateLabel = transactional(updateLabelIn);
export const deleteLabel = transactional(deleteLabelIn);
