import { sql, type Selectable } from 'kysely';
import type { DbOrTrx, Trx } from '../../platform/db/database.js';
import type { DialectName } from '../../platform/db/dialect.js';
import { badRequest } from '../../platform/http/errors.js';
import type { LabelKind } from './appointmentTypes.kinds.js';
import type { AppointmentLabelsTable } from './appointmentTypes.tables.js';
import './appointmentTypes.tables.js';

export type LabelRow = Selectable<AppointmentLabelsTable>;

/**
 * Both lists share one row type; Kysely types a query over a union of table names as the
 * intersection of their columns, which is the same here, so one table name stands for both.
 */
const tableOf = (kind: LabelKind) => kind.table as 'appointment_types';

export function labelsOf(db: DbOrTrx, kind: LabelKind, accountId: number) {
  return db.selectFrom(tableOf(kind)).selectAll().where('account_id', '=', accountId);
}

/** The labels list of one kind with its filter (an exact name). */
export function labelsList(
  db: DbOrTrx,
  kind: LabelKind,
  accountId: number,
  filters: { name?: string },
) {
  const query = labelsOf(db, kind, accountId);
  return filters.name === undefined ? query : query.where('name', '=', filters.name);
}

export async function findLabel(
  db: DbOrTrx,
  kind: LabelKind,
  accountId: number,
  id: number,
): Promise<LabelRow | undefined> {
  return labelsOf(db, kind, accountId).where('id', '=', id).executeTakeFirst();
}

/**
 * Checks that `id` names a record of the caller's account for an appointment's typeId/outcomeId.
 * On PostgreSQL the row is share-locked until the transaction ends, so a concurrent delete of the
 * type either waits for this appointment (and moves it) or wins first (and this refuses the id).
 */
export async function requireLabel(
  trx: Trx,
  dialect: DialectName,
  kind: LabelKind,
  accountId: number,
  id: number,
): Promise<void> {
  const found = await sql<{
    id: number;
  }>`select id from ${sql.table(kind.table)} where id = ${id} and account_id = ${accountId}${
    dialect === 'postgres' ? sql` for share` : sql``
  }`.execute(trx);
  if (found.rows.length === 0) {
    throw badRequest(`${kind.field}: no ${kind.noun} ${id} in this account`, [
      { field: kind.field, message: `unknown ${kind.noun}` },
    ]);
  }
}

/** Locks a record before its deletion (PostgreSQL; SQLite runs one writer at a time). See requireLabel. */
export async function lockLabel(
  trx: Trx,
  dialect: DialectName,
  kind: LabelKind,
  id: number,
): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select id from ${sql.table(kind.table)} where id = ${id} for update`.execute(trx);
}

export function presentLabel(row: LabelRow) {
  return {
    id: row.id,
    name: row.name,
    orderWeight: row.order_weight,
    created: row.created_at,
    updated: row.updated_at,
  };
}
