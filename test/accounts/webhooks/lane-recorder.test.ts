import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LaneRecorder, Slots } from '../../../src/accounts/webhooks/lanes.js';

describe('webhook lanes: outcome recorder and in-flight slots', () => {
  it('settles when outcomes arrive after the lane stopped (it used to spin for ever)', async () => {
    const written: number[][] = [];
    const released: number[] = [];
    const recorder = new LaneRecorder<number>(
      async (group) => {
        written.push(group);
        return 'stop';
      },
      (item) => released.push(item),
    );
    recorder.add(1);
    await recorder.settled();
    assert.equal(recorder.stopped, true);
    recorder.add(2); // a request that was in flight when the lane stopped
    const done = await Promise.race([
      recorder.settled().then(() => 'settled'),
      new Promise((r) => setTimeout(() => r('hung'), 1000)),
    ]);
    assert.equal(done, 'settled');
    assert.deepEqual(written, [[1]]);
    assert.deepEqual(released.sort(), [1, 2]);
  });

  it('groups the outcomes that arrive during a write, and reports a failed write', async () => {
    const written: number[][] = [];
    let fail = false;
    const recorder = new LaneRecorder<number>(async (group) => {
      written.push(group);
      await new Promise((r) => setTimeout(r, 20));
      if (fail) throw new Error('disk full');
      return 'continue';
    });
    recorder.add(1);
    recorder.add(2);
    recorder.add(3);
    await recorder.settled();
    assert.deepEqual(written, [[1], [2, 3]]);
    fail = true;
    recorder.add(4);
    await assert.rejects(recorder.settled(), /disk full/);
    assert.equal(recorder.stopped, true);
  });

  it('lingers for more outcomes to write them together, and writes a full group at once', async () => {
    const written: number[][] = [];
    const recorder = new LaneRecorder<number>(
      async (group) => {
        written.push(group);
        return 'continue';
      },
      () => {},
      // A linger far longer than the test: only a full group can end it.
      { lingerMs: 600_000, fullAt: 3 },
    );
    recorder.add(1);
    await new Promise((r) => setImmediate(r));
    recorder.add(2);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(written, [], 'two outcomes wait for a third');
    recorder.add(3);
    const done = await Promise.race([
      recorder.settled().then(() => 'settled'),
      new Promise((r) => setTimeout(() => r('still lingering'), 5000)),
    ]);
    assert.equal(done, 'settled');
    assert.deepEqual(written, [[1, 2, 3]]);
  });

  it('bounds requests in flight across lanes', async () => {
    const slots = new Slots(2);
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        await slots.acquire();
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((r) => setTimeout(r, 5));
        inside -= 1;
        slots.release();
      }),
    );
    assert.equal(most, 2);
  });
});
