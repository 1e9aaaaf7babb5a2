import { type RawBuilder, sql } from 'kysely';
import type { Trx } from './database.js';
import type { DialectName } from './dialect.js';

/**
 * Writes that need nothing of one another's results, sent together. On PostgreSQL they go as ONE
 * statement, each a data-modifying part of a WITH (PostgreSQL runs every such part exactly once and
 * to completion, all against the statement's snapshot): one round trip instead of one per write,
 * which on a loaded machine is most of what a batch of a bulk import costs. On SQLite, where a
 * statement costs no round trip, they run one after the other in the order added.
 *
 * The parts must not touch the same rows, nor read what another part writes.
 */
export class CombinedWrites {
  #parts: RawBuilder<unknown>[] = [];
  #counted: RawBuilder<unknown> | null = null;

  /** An INSERT, UPDATE or DELETE, without RETURNING. */
  add(statement: RawBuilder<unknown>): void {
    this.#parts.push(statement);
  }

  /** The write whose rows `run` counts: an INSERT, UPDATE or DELETE ending in `returning 1`. */
  count(statement: RawBuilder<unknown>): void {
    if (this.#counted) throw new Error('CombinedWrites: one counted write only');
    this.#counted = statement;
  }

  /** Runs every write; answers the number of rows the counted one returned (0 without one). */
  async run(trx: Trx, dialect: DialectName): Promise<number> {
    const parts = this.#parts;
    const counted = this.#counted;
    this.#parts = [];
    this.#counted = null;
    if (dialect === 'sqlite') {
      for (const part of parts) await part.execute(trx);
      return counted ? (await counted.execute(trx)).rows.length : 0;
    }
    if (parts.length === 0 && !counted) return 0;
    const named = parts.map((part, i) => sql`${sql.ref(`w${i}`)} as (${part})`);
    if (counted) named.push(sql`counted as (${counted})`);
    const result = counted ? sql`select count(*) as n from counted` : sql`select 0 as n`;
    const { rows } = await sql<{ n: number | string }>`with ${sql.join(named)} ${result}`.execute(
      trx,
    );
    return Number(rows[0].n);
  }
}
