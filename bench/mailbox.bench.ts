// Connected mailboxes: the first sync of a BENCH_MAILBOX_MESSAGES (20,000) message INBOX on a
// private dovecot (written straight into its maildir), in the server's worker, timed from
// POST /v1/mailboxes to status `ok`, with the server process's peak resident memory (VmHWM,
// and its resident memory before the sync). One message in ten is from one of 500 people and
// lands on a timeline; the rest are read, found to be no customer's, and checked for a lead.
// On SQLite, and on PostgreSQL when BENCH_PG_URL names an admin URL. Baseline: decoding alone
// (mailparser, as the sync reads each message), in this process.
import { readFileSync } from 'node:fs';
import { readMessage } from '../src/inbox/mailboxes/sync/message.js';
import { dovecotMissing, startDovecot } from '../test/inbox/dovecot.js';
import { startSmtpSink } from '../test/support/smtp-sink.js';
import type { BenchHarness, BenchRow } from './lib.js';
import { processCpuUs, scratchPostgres } from './lib.js';

const MESSAGES = Number(process.env.BENCH_MAILBOX_MESSAGES ?? 20_000);
const PEOPLE = 500;
const ADDRESS = 'bench.agent@mail.bench.test';
const PASSWORD = 'bench-mailbox-password';
const FILLER = 'We talked about the house on Harbor View and the schedule for next week. '.repeat(
  20,
);

function message(n: number, tag: string): string {
  const customer = n % 10 === 0;
  const from = customer
    ? `person${n % PEOPLE}@people.bench.test`
    : `someone${n}@elsewhere.bench.test`;
  return [
    `From: ${from}`,
    `To: ${ADDRESS}`,
    `Subject: Message ${n}`,
    `Date: ${new Date(Date.now() - (n % 80) * 86_400_000).toUTCString()}`,
    `Message-ID: <bench-${tag}-${n}@mail.bench.test>`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Hello ${n}. ${FILLER}`,
    '',
  ].join('\r\n');
}

function kb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

async function decodeBaseline(): Promise<BenchRow> {
  const raws = Array.from({ length: 2000 }, (_, n) => Buffer.from(message(n, 'base')));
  const before = process.cpuUsage();
  const started = Date.now();
  for (const raw of raws) await readMessage(raw);
  const used = process.cpuUsage(before);
  return {
    name: 'baseline: decoding alone (mailparser), 2,000 messages, no IMAP or database',
    rate: raws.length / ((Date.now() - started) / 1000),
    unit: 'messages/s',
    p50: 0,
    p99: 0,
    cpuUs: (used.user + used.system) / raws.length,
  };
}

async function run(h: BenchHarness, label: string, env: Record<string, string>): Promise<BenchRow> {
  const [dovecot, sink] = await Promise.all([startDovecot(), startSmtpSink()]);
  let booted: Awaited<ReturnType<BenchHarness['startServer']>> | null = null;
  try {
    booted = await h.startServer({ ...env, HEARTH_MAILBOX_ALLOW_PRIVATE: '1' });
    const server = booted;
    dovecot.addUser(ADDRESS, PASSWORD);
    const tag = `${label}-${process.pid}`;
    dovecot.fillInbox(
      ADDRESS,
      (function* () {
        for (let n = 0; n < MESSAGES; n++) yield message(n, tag);
      })(),
    );
    const headers = { authorization: server.authHeader, 'content-type': 'application/json' };
    for (let i = 0; i < PEOPLE; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          fetch(`${server.url}/v1/people`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              firstName: 'Bench',
              lastName: `Person ${i + k}`,
              emails: [{ value: `person${i + k}@people.bench.test` }],
            }),
          }).then((r) => r.text()),
        ),
      );
    }
    const rssBefore = kb(server.pid, 'VmRSS');
    const cpuBefore = processCpuUs(server.pid);
    const started = Date.now();
    const created = await fetch(`${server.url}/v1/mailboxes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        address: ADDRESS,
        imap: {
          host: dovecot.host,
          port: dovecot.port,
          secure: false,
          username: ADDRESS,
          password: PASSWORD,
        },
        smtp: {
          host: '127.0.0.1',
          port: Number(new URL(sink.url).port),
          secure: false,
          username: ADDRESS,
          password: PASSWORD,
        },
      }),
    });
    const box = (await created.json()) as { id: number; status: string; error: string | null };
    if (box.status === 'error') throw new Error(`mailbox not connected: ${box.error}`);
    let peakRss = 0;
    for (;;) {
      peakRss = Math.max(peakRss, kb(server.pid, 'VmRSS'));
      const row = await server.ctx.db
        .selectFrom('mailboxes')
        .select(['status', 'error'])
        .where('id', '=', box.id)
        .executeTakeFirstOrThrow();
      if (row.status === 'ok') break;
      if (row.status === 'error') throw new Error(`mailbox sync failed: ${row.error}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const seconds = (Date.now() - started) / 1000;
    const filed = await server.ctx.db
      .selectFrom('emails')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', server.accountId)
      .executeTakeFirstOrThrow();
    return {
      name: `mailbox first sync (${label}): ${MESSAGES.toLocaleString('en-US')} messages, IMAP → timelines`,
      rate: MESSAGES / seconds,
      unit: 'messages/s',
      p50: 0,
      p99: 0,
      cpuUs: (processCpuUs(server.pid) - cpuBefore) / MESSAGES,
      note: `${seconds.toFixed(1)} s; ${Number(filed.n)} emails filed; server RSS ${(rssBefore / 1024).toFixed(0)} MB before, peak ${(peakRss / 1024).toFixed(0)} MB sampled, VmHWM ${(kb(server.pid, 'VmHWM') / 1024).toFixed(0)} MB`,
    };
  } finally {
    await booted?.close();
    await dovecot.stop();
    await sink.close();
  }
}

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const missing = dovecotMissing();
  if (missing) {
    console.log(`mailbox bench skipped: ${missing}`);
    return [];
  }
  const rows = [await decodeBaseline(), await run(h, 'SQLite', {})];
  const adminUrl = process.env.BENCH_PG_URL;
  if (adminUrl) {
    const db = await scratchPostgres(adminUrl, 'hearth_bench_mailbox');
    try {
      rows.push(await run(h, 'PostgreSQL', { DATABASE_URL: db.url }));
    } finally {
      await db.drop();
    }
  }
  return rows;
}
