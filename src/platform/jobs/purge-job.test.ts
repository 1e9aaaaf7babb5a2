import { afterEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import type { AppContext } from '../context.js';
import { hourlyPurgeJob } from './purge-job.js';

const HOUR = 3600_000;

function contextWithWarnings(warnings: string[]): AppContext {
  const log = { warn: (_obj: unknown, message: string) => warnings.push(message) };
  return { db: {}, clock: { now: () => 1234 }, log } as unknown as AppContext;
}

describe('hourlyPurgeJob', () => {
  afterEach(() => mock.timers.reset());

  it('purges once an hour with the clock, logs a failed round and carries on', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    const warnings: string[] = [];
    const calls: number[] = [];
    const job = hourlyPurgeJob(contextWithWarnings(warnings), {
      name: 'test-purge',
      failure: 'test purge failed',
      async purge(_db, now) {
        calls.push(now);
        if (calls.length === 1) throw new Error('boom');
      },
    });
    assert.equal(job.name, 'test-purge');
    job.start();
    mock.timers.tick(HOUR - 1);
    assert.equal(calls.length, 0);
    mock.timers.tick(1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, ['test purge failed']);
    mock.timers.tick(HOUR);
    await job.stop(); // waits for the round in flight
    assert.deepEqual(calls, [1234, 1234]);
    assert.deepEqual(warnings, ['test purge failed'], 'the next round succeeded');
    mock.timers.tick(HOUR);
    assert.equal(calls.length, 2, 'no round after stop');
  });
});
