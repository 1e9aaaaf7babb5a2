import { type AnyDb, type DialectName, idType, primaryId } from '../dialect.js';

/**
 * Ponds (shared pools of leads: a lead agent and members) and teams (members and leaders), and
 * people.assigned_pond_id. Who sees a person follows from these (src/access/visibility.ts).
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  const id = idType(dialect);
  for (const table of ['ponds', 'teams']) {
    await db.schema
      .createTable(table)
      .addColumn('id', id, primaryId(dialect))
      .addColumn('account_id', 'integer', (c) =>
        c.notNull().references('accounts.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      // ponds: the lead agent, who stands in as the assigned agent of the pond's people
      .$call((t) =>
        table === 'ponds'
          ? t.addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          : t,
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_account`).on(table).columns(['account_id']).execute();
  }
  const memberLists = [
    ['pond_members', 'pond_id', 'ponds'],
    ['team_members', 'team_id', 'teams'],
    ['team_leaders', 'team_id', 'teams'],
  ] as const;
  for (const [table, key, parent] of memberLists) {
    await db.schema
      .createTable(table)
      .addColumn(key, 'integer', (c) => c.notNull().references(`${parent}.id`).onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint(`${table}_pk`, [key, 'user_id'])
      .execute();
    // Visibility looks members up by user: "which ponds/teams is this user in?"
    await db.schema.createIndex(`${table}_user`).on(table).columns(['user_id', key]).execute();
  }
  await db.schema.alterTable('people').addColumn('assigned_pond_id', 'integer').execute();
  await db.schema
    .createIndex('people_assigned_pond')
    .on('people')
    .columns(['account_id', 'assigned_pond_id'])
    .execute();
}
