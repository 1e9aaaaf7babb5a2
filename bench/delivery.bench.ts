// Webhook delivery: 10,000 events committed at a steady rate, 2 webhooks, a local HTTPS receiver.
// Reports deliveries per second from the first commit to the last acknowledged delivery, and the
// p50/p99 latency from each event's commit to its acknowledged delivery.
import type { BenchHarness, BenchRow } from './lib.js';
import { emit } from '../src/webhooks/outbox.js';
import { startReceiver, testCa } from '../test/webhooks/receiver.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
/** events committed per second (each is delivered twice) */
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 500);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const ca = await testCa();
  const server = await h.startServer({ HEARTH_WEBHOOK_ALLOW_PRIVATE: '1', HEARTH_WEBHOOK_CA: ca.file });
  const receiver = await startReceiver();
  try {
    for (const url of [`${receiver.url}?n=1`, `${receiver.url}?n=2`]) {
      const res = await fetch(`${server.url}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: server.authHeader, 'content-type': 'application/json', 'x-system': server.system.name, 'x-system-key': server.system.key },
        body: JSON.stringify({ event: 'notesCreated', url }),
      });
      if (res.status !== 201) throw new Error(`webhook registration failed: ${res.status} ${await res.text()}`);
    }
    const committed = new Map<number, number>();
    const started = Date.now();
    const perTick = Math.max(1, Math.round(RATE / 100));
    for (let id = 1; id <= EVENTS; ) {
      const tickStart = Date.now();
      for (let k = 0; k < perTick && id <= EVENTS; k++, id++) {
        await server.ctx.db.transaction().execute((trx) => emit(trx, server.accountId, 'notesCreated', [id]));
        committed.set(id, Date.now());
      }
      const due = started + ((id - 1) / RATE) * 1000;
      const wait = due - tickStart - (Date.now() - tickStart);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await receiver.waitFor(EVENTS * 2, 120_000);
    const latencies = receiver.received.map((r) => r.at - committed.get(r.json.resourceIds[0] as number)!).sort((a, b) => a - b);
    const seconds = (Math.max(...receiver.received.map((r) => r.at)) - started) / 1000;
    return [
      {
        name: `webhook delivery: ${EVENTS.toLocaleString('en-US')} events × 2 webhooks at ${RATE}/s, commit → acknowledged`,
        rate: (EVENTS * 2) / seconds,
        unit: 'deliveries/s',
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
      },
    ];
  } finally {
    await receiver.close();
    await server.close();
  }
}
