import type Database from 'better-sqlite3';
import {
  type LimitNode,
  type OffsetNode,
  type OperationNode,
  SqliteQueryCompiler,
  type ValueNode,
} from 'kysely';

/**
 * SQLite compiles a statement once, but re-compiles it before a run whenever a bound value was one
 * the planner looked at (sqlite3VdbeSetVarmask): a LIMIT or OFFSET value, and, in builds with
 * SQLITE_ENABLE_STAT4 such as better-sqlite3's, any value compared with an indexed column that
 * has sqlite_stat4 samples. Since Hearth binds values on every run, that was every run, costing
 * more than the lookup itself (docs/performance-cpu.md, "Measured reasons"). better-sqlite3 does not expose SQLITE_DBCONFIG_ENABLE_QPSG, which would turn this off, so:
 */

function isIntegerValue(node: OperationNode): node is ValueNode {
  if (node.kind !== 'ValueNode') return false;
  const { value, immediate } = node as ValueNode;
  return !immediate && typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** 1. LIMIT and OFFSET are written into the SQL (page sizes are few; statements are cached by text). */
export class LiteralLimitSqliteQueryCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    if (!isIntegerValue(node.limit)) return super.visitLimit(node);
    this.append(`limit ${node.limit.value as number}`);
  }

  protected override visitOffset(node: OffsetNode): void {
    if (!isIntegerValue(node.offset)) return super.visitOffset(node);
    this.append(`offset ${node.offset.value as number}`);
  }
}

/**
 * 2. The planner keeps sqlite_stat1 (rows per index prefix, which is what picks an index here:
 * every query starts with account_id) but not the sqlite_stat4 samples, which ANALYZE and
 * PRAGMA optimize write in this build. Run after either; the connection reloads its statistics,
 * and connections opened later read them without samples.
 */
export function dropStat4Samples(sqlite: Database.Database): void {
  const hasSamples = sqlite
    .prepare("select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat4'")
    .get();
  if (!hasSamples) return;
  sqlite.exec('delete from sqlite_stat4; analyze sqlite_schema');
}
