import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { ImportHeap } from '../../src/contacts/imports/heap.js';

const oldSpaceUsed = () =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

describe('ImportHeap (an import keeps its old generation from piling up)', () => {
  it('collects once the old generation has grown, without exposing gc to other code', () => {
    const heap = new ImportHeap();
    const base = oldSpaceUsed();
    // Garbage that reaches the old generation: kept alive across a few scavenges, then dropped.
    const kept: unknown[] = [];
    for (let round = 0; round < 8; round++) {
      const batch = Array.from({ length: 60_000 }, (_, i) => ({ i, text: `row ${i} ${round}` }));
      kept.push(batch);
      for (let j = 0; j < 200_000; j++) void { j }; // young garbage: scavenges promote `kept`
    }
    kept.length = 0;
    const grown = oldSpaceUsed();
    heap.check();
    const after = oldSpaceUsed();
    assert.ok(grown - base > 24 * 1024 * 1024, `old space grew ${(grown - base) >> 20} MB`);
    assert.ok(after < grown - 16 * 1024 * 1024, `collected: ${grown >> 20} -> ${after >> 20} MB`);
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
  });
});
