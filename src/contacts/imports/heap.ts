import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Keeps a long import's garbage from piling up in V8's old generation: a batch's rows outlive the
 * young collections, and V8 lets the old generation grow to a multiple of what was live, so the
 * peak grew with the file. The import collects itself between batches once the old generation
 * grew by OLD_GROWTH_BYTES; what that costs and the option rejected: docs/import.md.
 */
const OLD_GROWTH_BYTES = 24 * 1024 * 1024;

let collect: (() => void) | null | undefined;

/** V8's full collection, exposed for this process (once); null where it cannot be. */
function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    // --expose-gc takes effect for contexts created after it is set: one such context hands the
    // function over, and the flag goes back to what it was, so no other code sees a global gc.
    const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
    if (!exposed) v8.setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
    if (!exposed) v8.setFlagsFromString('--no-expose-gc');
  } catch {
    collect = null;
  }
  return collect;
}

const oldSpaceUsed = () =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;

/**
 * Tracks one import's old generation; `check` after each batch collects when it has grown. It
 * collects once as the import begins, so that the growth counts from what is live, not from the
 * garbage left by whatever ran before.
 */
export class ImportHeap {
  #base = 0;

  constructor() {
    this.#collect();
  }

  check(): void {
    const used = oldSpaceUsed();
    // A collection by V8 itself since the last check lowers the base.
    if (used < this.#base) this.#base = used;
    if (used - this.#base >= OLD_GROWTH_BYTES) this.#collect();
  }

  #collect(): void {
    collector()?.();
    this.#base = oldSpaceUsed();
  }
}
