import { sql } from 'kysely';
import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * First-to-claim lead routing.
 * - user_groups: `type` (Agent or Lender, a label clients filter by), the claim window in seconds
 *   and the fallback for unclaimed leads (a user, another group, or a pond).
 * - lead_offers: one row per offer round of a person to a group. At most one open offer per person
 *   (partial UNIQUE index); a claim is the single conditional UPDATE status open → claimed, so
 *   concurrent claims have exactly one winner on both databases. `expires_at` is what the worker
 *   polls, so expiry survives restarts; `fallbacks` counts how often the lead already moved on.
 * - lead_offer_recipients: who an offer went to, and who declined it (ignoreUnclaimed).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('user_groups')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('Agent'))
    .execute();
  await db.schema
    .alterTable('user_groups')
    .addColumn('claim_window', 'integer', (c) => c.notNull().defaultTo(1800))
    .execute();
  for (const column of ['default_user_id', 'default_group_id', 'default_pond_id'])
    await db.schema.alterTable('user_groups').addColumn(column, 'integer').execute();

  await db.schema
    .createTable('lead_offers')
    .addColumn('id', idType(dialect), primaryId(dialect))
    .addColumn('account_id', 'integer', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('person_id', 'integer', (c) =>
      c.notNull().references('people.id').onDelete('cascade'),
    )
    .addColumn('group_id', 'integer', (c) => c.references('user_groups.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('fallbacks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('offered_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('claimed_by_id', 'integer')
    .addColumn('closed_at', 'text')
    .execute();
  await db.schema
    .createIndex('lead_offers_one_open')
    .unique()
    .on('lead_offers')
    .column('person_id')
    .where(sql.ref('status'), '=', 'open')
    .execute();
  await db.schema
    .createIndex('lead_offers_due')
    .on('lead_offers')
    .columns(['status', 'expires_at'])
    .execute();

  await db.schema
    .createTable('lead_offer_recipients')
    .addColumn('offer_id', 'integer', (c) =>
      c.notNull().references('lead_offers.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ignored_at', 'text')
    .addPrimaryKeyConstraint('lead_offer_recipients_pk', ['offer_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('lead_offer_recipients_user')
    .on('lead_offer_recipients')
    .columns(['user_id', 'offer_id'])
    .execute();
}
