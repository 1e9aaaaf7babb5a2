// Built-in campaign email: one send to BENCH_EMAIL_RECIPIENTS (10,000) people through merge, the
// recipient queue and SMTP into a local sink (fast-smtp-sink.ts, in this process). Baseline: the same
// kind of sink fed by Hearth's SMTP pool alone (no database, no merge) in the same run.
// Reports messages/s from the 202 to the last accepted message, server CPU per message, and the
// server process's RSS: before the send, and its peak in the first and second half of the send
// (flat = the second half's peak is not above the first's by much).
import { readFileSync } from 'node:fs';
import { SmtpPool } from '../src/marketing/emailSending/smtp-pool.js';
import type { BenchHarness, BenchRow } from './lib.js';
import { processCpuUs } from './lib.js';
import { startFastSink } from './fast-smtp-sink.js';

const RECIPIENTS = Number(process.env.BENCH_EMAIL_RECIPIENTS ?? 10_000);
const BASELINE_MESSAGES = Math.min(RECIPIENTS, 3000);

const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};

async function until(check: () => boolean, timeoutMs: number, onTick: () => void) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('email bench: timed out');
    onTick();
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function directBaseline(): Promise<BenchRow> {
  const sink = await startFastSink();
  const pool = new SmtpPool(sink.url, 5, 0);
  const raw = Buffer.from(
    'From: news@bench.test\r\nTo: x@bench.test\r\nSubject: Hello\r\n\r\n<p>Hello</p>\r\n',
  );
  const started = Date.now();
  await Promise.all(
    Array.from({ length: BASELINE_MESSAGES }, (_, i) =>
      pool.send({ from: 'news@bench.test', to: `direct${i}@bench.test` }, raw, async () => true),
    ),
  );
  const seconds = (Date.now() - started) / 1000;
  pool.close();
  await sink.close();
  return {
    name: `baseline: the SMTP pool alone → the same kind of sink, ${BASELINE_MESSAGES} messages, no database`,
    rate: BASELINE_MESSAGES / seconds,
    unit: 'messages/s',
    p50: 0,
    p99: 0,
  };
}

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  const sink = await startFastSink();
  const server = await h.startServer(
    { HEARTH_SMTP_URL: sink.url, HEARTH_EMAIL_FROM: 'news@bench.test' },
    { people: RECIPIENTS },
  );
  try {
    const baseline = await directBaseline();
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: server.authHeader, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { id: number };
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const campaign = await call('/v1/emCampaigns', {
      origin: 'Hearth',
      originId: 'bench',
      name: 'Bench',
      subject: 'News for %contact_first_name%',
      bodyHtml:
        '<html><body><h1>Hello %contact_first_name%</h1><p>Your agent %agent_name% found ' +
        'homes for you.</p><p><a href="https://example.com/listings?city=x">See them</a></p>' +
        '</body></html>',
    });
    const list = await call('/v1/smartLists', { name: 'Everyone', filters: {} });
    const rssBefore = rssMb(server.pid);
    const cpuBefore = processCpuUs(server.pid);
    const started = Date.now();
    await call(`/v1/emCampaigns/${campaign.id}/send`, { smartListId: list.id });
    const accepted = Date.now() - started;
    const peaks = [rssBefore, rssBefore];
    await until(
      () => sink.count() >= RECIPIENTS,
      600_000,
      () => {
        const half = sink.count() < RECIPIENTS / 2 ? 0 : 1;
        peaks[half] = Math.max(peaks[half], rssMb(server.pid));
      },
    );
    const seconds = (Date.now() - started) / 1000;
    const cpuUs = (processCpuUs(server.pid) - cpuBefore) / RECIPIENTS;
    const duplicates = sink.duplicates();
    const row: BenchRow = {
      name: `email: ${RECIPIENTS.toLocaleString('en-US')} recipients, POST send → last message at the SMTP sink`,
      rate: RECIPIENTS / seconds,
      unit: 'messages/s',
      p50: 0,
      p99: 0,
      ratio: RECIPIENTS / seconds / baseline.rate,
      cpuUs,
      note:
        `202 in ${accepted} ms; server RSS ${rssBefore.toFixed(0)} MB before, peak ` +
        `${peaks[0].toFixed(0)} MB (first half) / ${peaks[1].toFixed(0)} MB (second half); ` +
        `${duplicates} duplicates`,
    };
    return [baseline, row];
  } finally {
    await server.close();
    await sink.close();
  }
}
