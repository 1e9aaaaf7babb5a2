import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParsedLead } from './parsers/index.js';

/** What a message decoded to: its headers as read, and the lead found (null: none). */
export interface Decoded {
  mail: { subject: string; from: string; dateMs: number | null };
  found: ParsedLead | null;
}
export interface ParseRequest {
  id: number;
  raw: Uint8Array;
}
export type ParseResponse =
  ({ id: number; error?: undefined } & Decoded) | { id: number; error: string };

/** The message could not be decoded at all (the worker's error, e.g. malformed MIME). */
export class UndecodableMail extends Error {}

// The worker's own file: .js in the build; .ts under tsx (tests), which the worker must load too.
const here = fileURLToPath(import.meta.url);
const WORKER_FILE = path.join(path.dirname(here), `parse.worker${path.extname(here)}`);
const WORKER_FILE_URL = pathToFileURL(WORKER_FILE).href;
function startWorker(): Worker {
  if (!here.endsWith('.ts')) return new Worker(WORKER_FILE);
  const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(WORKER_FILE_URL)}); })`;
  return new Worker(boot, { eval: true });
}
/** A worker is replaced after this many messages, so a leak in a parser cannot grow for ever. */
const RECYCLE_AFTER = 50_000;

interface Slot {
  worker: Worker;
  waiting: Map<number, { resolve(d: Decoded): void; reject(e: Error): void }>;
  handled: number;
}

/**
 * Decodes and parses lead emails on worker threads (half the cores, at least one), so mailparser's
 * CPU never holds up the event loop that answers /livez, the API and the SMTP listener. A worker
 * that dies fails its messages (their jobs retry) and is replaced on the next call.
 */
export class ParsePool {
  #slots: (Slot | null)[];
  #next = 0;
  #ids = 0;

  constructor(size = Math.max(1, Math.floor(availableParallelism() / 2))) {
    this.#slots = Array.from({ length: size }, () => null);
  }

  decode(raw: Buffer): Promise<Decoded> {
    const index = this.#next++ % this.#slots.length;
    const slot = this.#slotAt(index);
    const id = ++this.#ids;
    const decoded = new Promise<Decoded>((resolve, reject) => {
      slot.waiting.set(id, { resolve, reject });
      slot.worker.postMessage({ id, raw } satisfies ParseRequest);
    });
    if (++slot.handled >= RECYCLE_AFTER) this.#retire(index);
    return decoded;
  }

  async close(): Promise<void> {
    const slots = this.#slots.filter((s): s is Slot => s !== null);
    this.#slots = this.#slots.map(() => null);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  #slotAt(index: number): Slot {
    const existing = this.#slots[index];
    if (existing) return existing;
    const slot: Slot = {
      worker: startWorker(),
      waiting: new Map(),
      handled: 0,
    };
    slot.worker.unref();
    slot.worker.on('message', (response: ParseResponse) => {
      const waiter = slot.waiting.get(response.id);
      slot.waiting.delete(response.id);
      if (!waiter) return;
      if (response.error !== undefined) waiter.reject(new UndecodableMail(response.error));
      else waiter.resolve({ mail: response.mail, found: response.found });
      if (this.#slots[index] !== slot && slot.waiting.size === 0) void slot.worker.terminate();
    });
    const fail = (error: Error) => {
      if (this.#slots[index] === slot) this.#slots[index] = null;
      for (const waiter of slot.waiting.values()) waiter.reject(error);
      slot.waiting.clear();
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => fail(new Error(`The parse worker stopped (exit ${code})`)));
    this.#slots[index] = slot;
    return slot;
  }

  /** Lets the slot finish what it has; the next message starts a fresh worker. */
  #retire(index: number): void {
    const slot = this.#slots[index];
    this.#slots[index] = null;
    if (slot && slot.waiting.size === 0) void slot.worker.terminate();
  }
}
