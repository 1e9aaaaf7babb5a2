import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Appointment types and appointment outcomes (one list of each per account), and
 * appointments.outcome_id beside the existing type_id.
 *
 * Every existing account gets the default lists new accounts get (copied here: migrations never
 * import application code, and this is the set as it was when the tables arrived).
 *
 * Before this migration type_id was stored as given and named nothing. Such values are kept as
 * what they were, a client's own grouping: each distinct (account, type_id) becomes a type named
 * "Type <old id>" and its appointments point at it, so an admin can rename it or delete it into
 * another type. Without this, an old type_id could silently name a new type of another account.
 */
const SEED_TYPES = ['Buyer Consultation', 'Listing Appointment', 'Showing', 'Closing', 'Other'];
const SEED_OUTCOMES = ['Met', 'No Show', 'Rescheduled', 'Canceled'];
const WEIGHT_STEP = 10;

export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);
  for (const table of ['appointment_types', 'appointment_outcomes']) {
    await db.schema
      .createTable(table)
      .addColumn('id', id, primaryId(dialect))
      .addColumn('account_id', 'integer', (c) =>
        c.notNull().references('accounts.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('order_weight', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex(`${table}_account_name`)
      .unique()
      .on(table)
      .columns(['account_id', 'name'])
      .execute();
  }

  // No foreign keys from appointments: SQLite cannot add one to the existing type_id, and both
  // columns follow one rule (deleting a type or outcome moves its appointments, in the API).
  await db.schema.alterTable('appointments').addColumn('outcome_id', 'integer').execute();
  await db.schema
    .createIndex('appointments_type')
    .on('appointments')
    .columns(['account_id', 'type_id'])
    .execute();
  await db.schema
    .createIndex('appointments_outcome')
    .on('appointments')
    .columns(['account_id', 'outcome_id'])
    .execute();

  // Old values become negative first, so that no new type's id can be mistaken for one of them.
  await db
    .updateTable('appointments')
    .set((eb) => ({ type_id: eb.neg(eb.ref('type_id')) }))
    .where('type_id', 'is not', null)
    .execute();

  const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const accounts = await db.selectFrom('accounts').select('id').orderBy('id').execute();
  for (const { id: accountId } of accounts) {
    const row = (name: string, index: number) => ({
      account_id: accountId,
      name,
      order_weight: (index + 1) * WEIGHT_STEP,
      created_at: at,
      updated_at: at,
    });
    await db.insertInto('appointment_types').values(SEED_TYPES.map(row)).execute();
    await db.insertInto('appointment_outcomes').values(SEED_OUTCOMES.map(row)).execute();

    const stale = await db
      .selectFrom('appointments')
      .select('type_id')
      .distinct()
      .where('account_id', '=', accountId)
      .where('type_id', '<', 0)
      .orderBy('type_id', 'desc')
      .execute();
    for (const [index, { type_id: negated }] of stale.entries()) {
      const oldId = -Number(negated);
      const created = await db
        .insertInto('appointment_types')
        .values(row(`Type ${oldId}`, SEED_TYPES.length + index))
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('appointments')
        .set({ type_id: created.id })
        .where('account_id', '=', accountId)
        .where('type_id', '=', negated)
        .execute();
    }
  }
  // A type_id whose account is gone cannot be kept (accounts cascade, so there should be none).
  await db.updateTable('appointments').set({ type_id: null }).where('type_id', '<', 0).execute();
}
