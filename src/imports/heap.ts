import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Keeps a long import's garbage from piling up in V8's old generation.
 *
 * A batch's rows, people and statements live across its own round trips and the next batch's
 * preparation, so the young generation's collections promote most of them (2.5-5 KB a row) although
 * they die a batch later. V8 only collects the old generation once it has grown to a multiple of
 * what was live after the last full collection (up to 4x on a machine with memory to spare): the
 * worker's heap rose from ~25 MB live to 100-120 MB before each full collection, so a 100,000-row
 * import peaked 60-90 MB above a 10,000-row one (PostgreSQL 208-238 MB against 145 MB).
 *
 * So the import collects itself, between batches (and while counting the rows), once the old
 * generation holds OLD_GROWTH_BYTES more than after its last collection: the peak no longer depends
 * on the file's size. The price is CPU: a full collection every ~10,000 rows (10-35 ms each, on the
 * event loop between two batches) and ~15-25 µs more worker CPU per row in all, measured. Lowering
 * V8's own growth factor instead (--heap-growing-percent=20-50, set at run time) bounded the peak
 * as well but cost more (60 incremental collections per 100,000 rows, +25-30 µs a row).
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
