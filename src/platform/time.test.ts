import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dateOf, isoOffset, isoSeconds, parseDate, parseTimestamp } from './time.js';

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

describe('date inputs (one rule)', () => {
  it('reads a date-time without a zone as UTC, whatever TZ the server runs in', () => {
    assert.equal(parseTimestamp('2025-01-01T10:00'), Date.UTC(2025, 0, 1, 10));
    assert.equal(parseTimestamp('2025-01-01 10:00:30'), Date.UTC(2025, 0, 1, 10, 0, 30));
    assert.equal(parseTimestamp('2025-01-01'), Date.UTC(2025, 0, 1));
  });

  it('honours a zone: Z, ±HH:MM and ±HHMM', () => {
    assert.equal(parseTimestamp('2025-01-01T10:00:00Z'), Date.UTC(2025, 0, 1, 10));
    assert.equal(parseTimestamp('2025-01-01t10:00z'), Date.UTC(2025, 0, 1, 10));
    assert.equal(parseTimestamp('2025-01-01T10:00:00-05:00'), Date.UTC(2025, 0, 1, 15));
    assert.equal(parseTimestamp('2025-01-01T10:00:00+0130'), Date.UTC(2025, 0, 1, 8, 30));
    assert.equal(parseTimestamp('2025-01-01T10:00:00.570Z'), Date.UTC(2025, 0, 1, 10, 0, 0, 570));
    assert.equal(
      parseTimestamp(' 2025-01-01T10:00:00.123456789Z '),
      Date.UTC(2025, 0, 1, 10, 0, 0, 123),
    );
  });

  it("refuses what Date.parse would guess at, and days or times that don't exist", () => {
    for (const raw of [
      'March 7, 2025',
      '3/7/2025',
      '2025',
      '2025-1-1',
      'yesterday',
      '',
      '2025-02-30',
      '2025-02-29T10:00Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T10:60Z',
      '2025-01-01T10:00+25:00',
      '2025-01-01T10:00:00 GMT',
      '+275760-09-14T00:00:01Z',
    ]) {
      assert.equal(parseTimestamp(raw), null, raw);
    }
    assert.equal(parseTimestamp('2024-02-29T10:00Z'), Date.UTC(2024, 1, 29, 10));
    assert.equal(parseTimestamp('0050-01-01'), -60589296000000);
  });

  it('date-only fields keep a date', () => {
    assert.equal(parseDate('2026-03-01'), '2026-03-01');
    assert.equal(parseDate('2026-02-30'), null);
    assert.equal(parseDate('2026-03-01T10:00Z'), null);
    assert.equal(dateOf('2026-03-01T23:00:00-05:00'), '2026-03-01');
    assert.equal(dateOf('2026-03-01'), '2026-03-01');
    assert.equal(dateOf('March 1, 2026'), null);
  });
});
