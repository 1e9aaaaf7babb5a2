import type { Kysely } from 'kysely';
import type { DB } from './database.js';
import { listLaneSize, poolOf } from './connect.js';
import { tooSlow } from './sqlite/budget-function.js';

/*
 * PostgreSQL: list reads (the people list and its total) may hold only a few connections of the
 * pool at once (list-concurrency.ts: by default half of the cores when the database is on this
 * machine, half of the pool when it is not). A list runs its queries in a transaction of its own;
 * sixteen clients listing at once took all ten connections, and lead events, health checks and
 * every other request queued behind them for a connection (lead ingestion fell to 1% of its
 * rate). Lists now queue among themselves, first come first served, and the rest of the pool
 * stays free for everything else. (SQLite's heavy reads have threads of their own:
 * read-threads.ts.)
 */

interface Lane {
  free: number;
  waiting: (() => void)[];
}

const lanes = new WeakMap<object, Lane>();

function laneOf(db: Kysely<DB>): Lane | null {
  const pool = poolOf(db);
  if (!pool) return null;
  let lane = lanes.get(pool);
  if (!lane) {
    lane = { free: listLaneSize(pool), waiting: [] };
    lanes.set(pool, lane);
  }
  return lane;
}

/**
 * Runs `read` once a list lane is free; a list still waiting at `deadline` (epoch ms) is
 * answered as over its time budget, like a query that ran past it.
 */
export async function inListLane<T>(
  db: Kysely<DB>,
  deadline: number,
  read: () => Promise<T>,
): Promise<T> {
  const lane = laneOf(db);
  if (!lane) return read();
  if (lane.free > 0) lane.free--;
  else await waitForTurn(lane, deadline);
  try {
    return await read();
  } finally {
    const next = lane.waiting.shift();
    if (next) next();
    else lane.free++;
  }
}

function waitForTurn(lane: Lane, deadline: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const turn = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(
      () => {
        lane.waiting.splice(lane.waiting.indexOf(turn), 1);
        reject(tooSlow());
      },
      Math.max(0, deadline - Date.now()),
    );
    lane.waiting.push(turn);
  });
}
