import type { AnyDb, DialectName } from '../dialect.js';

/**
 * people.timeframe_id: when the person plans to buy or sell, one of the fixed timeframes of
 * GET /v1/timeframes (not a table: the list is the same for every account).
 */
export async function up(db: AnyDb, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('people').addColumn('timeframe_id', 'integer').execute();
}
