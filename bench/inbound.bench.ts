// Leads by email: BENCH_INBOUND_MESSAGES (2,000) form-mail leads sent over SMTP (STARTTLS, 10
// connections) to Hearth's listener, timed from the first message to the last person made, with
// the server's CPU per message and GET /livez answered meanwhile (p50/p99). On SQLite, and on
// PostgreSQL when BENCH_PG_URL names an admin URL. Baseline: the parse alone (mailparser and the
// format recognisers), in this process, per message.
import { connect } from 'node:net';
import { loadavg } from 'node:os';
import nodemailer from 'nodemailer';
import { readMail } from '../src/leads/inboundEmail/mime.js';
import { parseLeadEmail } from '../src/leads/inboundEmail/parsers/index.js';
import { leadAddressOf } from '../src/accounts/users/leadAddresses.js';
import type { BenchHarness, BenchRow } from './lib.js';
import { median, processCpuUs, scratchPostgres } from './lib.js';

const MESSAGES = Number(process.env.BENCH_INBOUND_MESSAGES ?? 2000);
const DOMAIN = 'leads.bench.test';
const IDLE_MS = 3000;

function leadMail(n: number, to: string): string {
  return [
    `From: Website Form <forms@site${n % 50}.bench.test>`,
    `To: ${to}`,
    'Subject: Contact form submission',
    `Message-ID: <bench-${process.pid}-${n}@bench.test>`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Name: Bench Lead ${n}`,
    `Email: lead${process.pid}-${n}@bench.test`,
    `Phone: 555-01${String(n % 100000).padStart(5, '0')}`,
    'Address: 12 Harbor View, Springfield, IL 62701',
    'Message: Is it still available?',
    '',
  ].join('\r\n');
}

function parseBaseline(): Promise<BenchRow> {
  const mails = Array.from({ length: 1000 }, (_, n) => Buffer.from(leadMail(n, 'x@bench.test')));
  return (async () => {
    const before = process.cpuUsage();
    const started = Date.now();
    for (const raw of mails) await parseLeadEmail(await readMail(raw));
    const used = process.cpuUsage(before);
    const seconds = (Date.now() - started) / 1000;
    return {
      name: 'baseline: parse alone (mailparser + recognisers), 1,000 messages, no SMTP or database',
      rate: mails.length / seconds,
      unit: 'messages/s',
      p50: 0,
      p99: 0,
      cpuUs: (used.user + used.system) / mails.length,
    };
  })();
}

async function run(h: BenchHarness, label: string, env: Record<string, string>): Promise<BenchRow> {
  const port = 40000 + Math.floor(Math.random() * 20000);
  const server = await h.startServer({
    ...env,
    HEARTH_INBOUND_SMTP_PORT: String(port),
    HEARTH_INBOUND_DOMAIN: DOMAIN,
  });
  try {
    const to = await leadAddressOf(
      server.ctx.db,
      DOMAIN,
      { accountId: server.accountId, userId: null },
      Date.now(),
    );
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      pool: true,
      maxConnections: 10,
      maxMessages: Infinity,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
      // An MTA writes a message in one go; nodemailer writes the closing dot on its own, which
      // Nagle's algorithm would hold behind the listener's delayed ACK (40 ms a message).
      getSocket: (_options, callback) => {
        const socket = connect(port, '127.0.0.1', () => callback(null, { connection: socket }));
        socket.setNoDelay(true);
        socket.once('error', (err) => callback(err, undefined as never));
      },
    });
    const latencies: number[] = [];
    let sending = true;
    const probe = async (until: () => boolean, into: number[]) => {
      while (until()) {
        const t = performance.now();
        await fetch(`${server.url}/livez`);
        into.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    // The server's CPU with the probe alone (and its jobs idle), taken out of the per-message
    // figure: at a low rate the flood lasts long, and the probe's CPU would be charged to it.
    const idleStart = processCpuUs(server.pid);
    const idleEnd = performance.now() + IDLE_MS;
    await probe(() => performance.now() < idleEnd, []);
    const idleUsPerMs = (processCpuUs(server.pid) - idleStart) / IDLE_MS;
    const probing = probe(() => sending, latencies);
    const cpuBefore = processCpuUs(server.pid);
    const clientBefore = process.cpuUsage();
    const started = Date.now();
    await Promise.all(
      Array.from({ length: MESSAGES }, (_, n) =>
        transport.sendMail({
          envelope: { from: `forms@site${n}.bench.test`, to: [to] },
          raw: leadMail(n, to),
        }),
      ),
    );
    const accepted = (Date.now() - started) / 1000;
    const client = process.cpuUsage(clientBefore);
    for (;;) {
      const { n } = await server.ctx.db
        .selectFrom('people')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', server.accountId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= MESSAGES) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    sending = false;
    await probing;
    transport.close();
    latencies.sort((a, b) => a - b);
    return {
      name: `inbound (${label}): ${MESSAGES.toLocaleString('en-US')} lead emails, SMTP → people`,
      rate: MESSAGES / seconds,
      unit: 'messages/s',
      p50: median(latencies),
      p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
      cpuUs: (processCpuUs(server.pid) - cpuBefore - idleUsPerMs * seconds * 1000) / MESSAGES,
      note:
        `all accepted (250) in ${accepted.toFixed(1)} s; p50/p99: GET /livez meanwhile (ms); ` +
        `CPU net of the probe alone (${(idleUsPerMs / 10).toFixed(1)}% of a core); ` +
        `the sender's own CPU ${((client.user + client.system) / MESSAGES).toFixed(0)} µs a message; ` +
        `load ${loadavg()[0].toFixed(1)}`,
    };
  } finally {
    await server.close();
  }
}

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const rows = [await parseBaseline(), await run(h, 'SQLite', {})];
  const adminUrl = process.env.BENCH_PG_URL;
  if (adminUrl) {
    const db = await scratchPostgres(adminUrl, 'hearth_bench_inbound');
    try {
      rows.push(await run(h, 'PostgreSQL', { DATABASE_URL: db.url }));
    } finally {
      await db.drop();
    }
  }
  return rows;
}
