import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isoOffset, isoSeconds } from './time.js';

describe('timestamps', () => {
  it('isoSeconds drops the milliseconds, also for instants in the same second or far from now', () => {
    assert.equal(isoSeconds(Date.UTC(2026, 0, 31, 12, 0, 0, 999)), '2026-01-31T12:00:00Z');
    assert.equal(isoSeconds(Date.UTC(2026, 0, 31, 12, 0, 0, 1)), '2026-01-31T12:00:00Z');
    assert.equal(isoSeconds(Date.UTC(2026, 0, 31, 12, 0, 1, 0)), '2026-01-31T12:00:01Z');
    assert.equal(isoSeconds(-1), '1969-12-31T23:59:59Z');
    assert.equal(isoSeconds(8.64e15), '+275760-09-13T00:00:00Z');
    assert.equal(isoSeconds(Date.UTC(2026, 0, 31, 12, 0, 1, 500)), '2026-01-31T12:00:01Z');
    assert.throws(() => isoSeconds(Number.NaN), RangeError);
  });

  it('isoOffset writes +00:00 for Z', () => {
    assert.equal(isoOffset(Date.UTC(2026, 5, 1)), '2026-06-01T00:00:00+00:00');
  });
});
