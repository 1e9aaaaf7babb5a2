import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Agent, request } from 'undici';
import { type TestServer, PUBLIC_URL, basic, startServer } from '../support/server.js';
import { once } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { spawnServer, waitFor } from '../support/process.js';

const TOTAL = 600;
const CONCURRENCY = 16;
const KILL_AFTER = 150;

/** Resolves once the process has ended, by exit or by signal. */
async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A client sending lead events with Idempotency-Keys while the server is killed with SIGKILL,
 * then resending every request it got no answer to after a restart: each lead is recorded once.
 */
describe('idempotency keys across kill -9', () => {
  let db: TestServer;
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false }, pipelining: 0 });
  const children: ReturnType<typeof spawnServer>[] = [];
  before(async () => {
    db = await startServer({ api: false });
  });
  after(async () => {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
    await dispatcher.close();
    await db.close();
  });

  async function startApi(port: number) {
    const server = spawnServer({
      HEARTH_ROLE: 'api',
      DATABASE_URL: db.ctx.config.databaseUrl,
      HEARTH_DATA_DIR: db.dataDir,
      HEARTH_PUBLIC_URL: PUBLIC_URL,
      HEARTH_RATE_LIMITS: 'off',
      HEARTH_LOG_LEVEL: 'warn',
      PORT: String(port),
    });
    children.push(server);
    await waitFor(async () => {
      try {
        const res = await request(`https://127.0.0.1:${port}/livez`, { dispatcher });
        await res.body.dump();
        return res.statusCode === 200;
      } catch {
        return false;
      }
    });
    return server;
  }

  it('resending unanswered lead events after a crash records each exactly once', async () => {
    const account = await db.newAccount();
    const port = await freePort();
    const run = `crash-${process.pid}-${Date.now()}`;
    const keyOf = (i: number) => `${run}-${i}`;
    const send = async (i: number) => {
      const res = await request(`https://127.0.0.1:${port}/v1/events`, {
        method: 'POST',
        dispatcher,
        headers: {
          authorization: basic(account.owner.key),
          'content-type': 'application/json',
          'idempotency-key': keyOf(i),
        },
        body: JSON.stringify({
          source: 'crash.example.com',
          type: 'General Inquiry',
          message: keyOf(i),
          person: { firstName: `Lead ${i}`, emails: [{ value: `${keyOf(i)}@example.com` }] },
        }),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text };
    };

    const answered = new Map<number, number>();
    let first = await startApi(port);
    let next = 0;
    let killed = false;
    const sendAll = async (indexes: number[], onAnswer: () => void) => {
      const queue = [...indexes];
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
            try {
              const res = await send(i);
              if (res.status === 409 && /still being processed/.test(res.body)) {
                queue.push(i);
                await new Promise((r) => setTimeout(r, 100));
                continue;
              }
              answered.set(i, res.status);
              onAnswer();
            } catch {
              // no answer: the server is gone; resent after the restart
            }
          }
        }),
      );
    };
    await sendAll(
      Array.from({ length: TOTAL }, (_, i) => i),
      () => {
        next += 1;
        if (next === KILL_AFTER && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      },
    );
    await ended(first.child);
    const unanswered = Array.from({ length: TOTAL }, (_, i) => i).filter((i) => !answered.has(i));
    assert.ok(unanswered.length > 0, 'the kill left some requests unanswered');

    first = await startApi(port);
    await sendAll(unanswered, () => {});
    const statuses = [...answered.values()];
    assert.equal(answered.size, TOTAL);
    assert.ok(
      statuses.every((s) => s === 201 || s === 409),
      `statuses: ${[...new Set(statuses)].join()}`,
    );

    const rows = await db.ctx.db
      .selectFrom('lead_events')
      .select(['message', (eb) => eb.fn.countAll<number>().as('n')])
      .where('account_id', '=', account.accountId)
      .groupBy('message')
      .execute();
    const counts = new Map(rows.map((r) => [r.message, Number(r.n)]));
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    const lost = Array.from({ length: TOTAL }, (_, i) => keyOf(i)).filter((k) => !counts.has(k));
    console.log(
      `# crash test: ${TOTAL} lead events, ${unanswered.length} unanswered at the kill and resent, ` +
        `${statuses.filter((s) => s === 409).length} answered "applied, answer lost", ` +
        `${duplicates} duplicated, ${lost.length} lost`,
    );
    assert.equal(duplicates, 0);
    assert.deepEqual(lost, []);
    first.child.kill('SIGTERM');
    await ended(first.child);
  });
});
