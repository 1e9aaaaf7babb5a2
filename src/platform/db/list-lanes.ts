import type { DbOrTrx } from './database.js';
import { HearthDb, type ListLaneRunner } from './hearth-db.js';
import { tooSlow } from './sqlite/budget-function.js';

/*
 * PostgreSQL: list reads may hold only a few connections of the pool at once (list-concurrency.ts),
 * queueing among themselves first come first served, so that the rest of the pool stays free for
 * lead events and every other request (docs/performance.md). SQLite's lists have read-threads.ts.
 */

/** The lanes of one pool: how many list reads may still start, and those waiting for a turn. */
export class ListLanes implements ListLaneRunner {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  /**
   * Runs `read` once a lane is free; a list still waiting at `deadline` (epoch ms) is answered as
   * over its time budget, like a query that ran past it.
   */
  async run<T>(deadline: number, read: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await this.#waitForTurn(deadline);
    try {
      return await read();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }

  #waitForTurn(deadline: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          this.#waiting.splice(this.#waiting.indexOf(turn), 1);
          reject(tooSlow());
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#waiting.push(turn);
    });
  }
}

/** Runs `read` in a list lane of the database's pool, or at once where it has none (SQLite). */
export function inListLane<T>(db: DbOrTrx, deadline: number, read: () => Promise<T>): Promise<T> {
  const lanes = db instanceof HearthDb ? db.listLanes : null;
  return lanes ? lanes.run(deadline, read) : read();
}
