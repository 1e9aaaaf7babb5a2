import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../../src/platform/db/connect.js';
import { inListLane } from '../../src/platform/db/list-lanes.js';

// PostgreSQL: list reads hold at most HEARTH_LIST_CONCURRENCY connections (src/platform/db/list-lanes.ts), so
// the other requests always find a connection while lists queue among themselves.
describe(
  'PostgreSQL list lanes',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs PostgreSQL: set TEST_DATABASE_URL' },
  () => {
    it('lists take half the pool, queue for it in order, and give up at their deadline', async () => {
      const { db } = openDatabase(process.env.TEST_DATABASE_URL!, {
        poolSize: 4,
        listConcurrency: 2,
      });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      try {
        const later = Date.now() + 60_000;
        const order: string[] = [];
        // Two lists hold both lanes (HEARTH_LIST_CONCURRENCY 2), each inside a query's connection.
        const holding = [1, 2].map((n) =>
          inListLane(db, later, () =>
            db.transaction().execute(async (trx) => {
              await sql`select 1`.execute(trx);
              order.push(`list ${n} started`);
              await held;
            }),
          ),
        );
        while (order.length < 2) await new Promise((r) => setTimeout(r, 10));
        // A third list waits for a lane; one whose deadline comes first gives up with the 503.
        const third = inListLane(db, later, async () => {
          order.push('list 3 started');
        });
        const hurried = inListLane(db, Date.now() + 50, async () => {
          order.push('hurried list started');
        });
        await assert.rejects(hurried, (error: { status?: number; code?: string }) => {
          assert.deepEqual([error.status, error.code], [503, 'QUERY_TOO_SLOW']);
          return true;
        });
        // Meanwhile the other half of the pool answers everything else at once.
        const { rows } = await sql<{ two: number }>`select 2 as two`.execute(db);
        assert.deepEqual(rows, [{ two: 2 }]);
        // (the two holders start in whichever order their connections came)
        assert.deepEqual([...order].sort(), ['list 1 started', 'list 2 started']);
        release();
        await Promise.all([...holding, third]);
        assert.deepEqual(order.slice(2), ['list 3 started']);
      } finally {
        release();
        await db.destroy();
      }
    });
  },
);
