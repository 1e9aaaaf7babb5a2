// `npm run bench -- import`: a CSV import of BENCH_IMPORT_ROWS rows (default 100,000; a third of
// them people the database already holds, matched by email) and then an export of everyone, on
// SQLite and, with BENCH_PG_URL set (an empty database to use), on PostgreSQL. The import runs in
// a worker process of its own (HEARTH_ROLE=worker) beside an API process (HEARTH_ROLE=api), so the
// peak memory reported is the worker's alone: VmHWM from /proc, reset before each measured step.
// A run of a tenth of the rows beside it shows whether memory stays flat in the file size. Each
// row also gives the process's CPU time (/proc utime + stime) per imported row or exported person.
// BENCH_WORKER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the worker.
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchHarness, type BenchRow, type BenchServer, processCpuUs } from './lib.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
/** PostgreSQL pays a round trip per query: BENCH_IMPORT_PG_ROWS keeps its run short on a busy machine. */
const PG_ROWS = Number(process.env.BENCH_IMPORT_PG_ROWS ?? ROWS);
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/server.js');

/** Resident memory now (VmRSS) or its peak since the last reset (VmHWM), in MB. */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}
const peakMb = (pid: number) => memoryMb(pid, 'VmHWM');
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

/** BENCH_IMPORT_AGAIN=n imports n more files of the full size into the same worker (does memory pile up?). */
const AGAIN = Number(process.env.BENCH_IMPORT_AGAIN ?? 0);
/** Each file's own phone numbers (new people's emails differ by tag already). */
const PHONE_DIGIT: Record<string, number> = { small: 6, full: 7, again1: 8, again2: 9 };

/** `rows` people: the first third already in the database (person<knownFrom+i>@bench.test), the rest new. */
function writeCsv(file: string, rows: number, knownFrom: number, tag: string): void {
  const lines = ['First Name,Last Name,Email,Phone,Tags,City,Notes'];
  const known = Math.floor(rows / 3);
  for (let i = 0; i < rows; i++) {
    const email = i < known ? `person${knownFrom + i}@bench.test` : `${tag}-${i}@import.bench.test`;
    const phone = `55${PHONE_DIGIT[tag] ?? 7}${String(i).padStart(7, '0')}`;
    lines.push(`Imported,"Row ${i}",${email},${phone},"csv, bench",Springfield,"note ${i}"`);
  }
  writeFileSync(file, lines.join('\r\n') + '\r\n');
}

async function importFile(server: BenchServer, file: string, workerPid: number) {
  resetPeak(workerPid);
  const idle = memoryMb(workerPid, 'VmRSS');
  const cpuBefore = processCpuUs(workerPid);
  const started = performance.now();
  const res = await fetch(`${server.url}/v1/imports`, {
    method: 'POST',
    headers: { authorization: server.authHeader, 'content-type': 'text/csv' },
    body: createReadStream(file) as unknown as BodyInit,
    duplex: 'half',
  } as RequestInit);
  if (res.status !== 202) throw new Error(`import refused: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: number };
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const body = (await (
      await fetch(`${server.url}/v1/imports/${id}`, {
        headers: { authorization: server.authHeader },
      })
    ).json()) as Record<string, number | string>;
    if (body.status === 'failed') throw new Error(`import failed: ${JSON.stringify(body)}`);
    if (body.status === 'done') {
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = (processCpuUs(workerPid) - cpuBefore) / 1e6;
      return { seconds, cpuSeconds, idle, peak: peakMb(workerPid), body };
    }
  }
}

async function exportAll(server: BenchServer) {
  resetPeak(server.pid);
  const before = memoryMb(server.pid, 'VmRSS');
  const cpuBefore = processCpuUs(server.pid);
  const started = performance.now();
  const res = await fetch(`${server.url}/v1/people/export`, {
    headers: { authorization: server.authHeader },
  });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (processCpuUs(server.pid) - cpuBefore) / 1e6,
    before,
    peak: peakMb(server.pid),
    bytes,
    lines,
  };
}

/** Resolves once the worker has started its background jobs (its info log says so), past migrations. */
function workerStarted(worker: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen: string | null = '';
    const onData = (chunk: Buffer) => {
      if (seen === null) return; // started: later lines are read and dropped
      seen += chunk.toString();
      if (!seen.includes('background job started')) return;
      seen = null;
      resolve();
    };
    worker.stdout!.on('data', onData);
    worker.once('exit', () => reject(new Error('bench worker exited during start-up')));
  });
}

async function onDatabase(
  h: BenchHarness,
  label: string,
  env: Record<string, string>,
  ROWS: number,
) {
  const rows: BenchRow[] = [];
  const small = Math.max(1, Math.floor(ROWS / 10));
  const knownSmall = Math.floor(small / 3);
  const people = knownSmall + Math.floor(ROWS / 3);
  const server = await h.startServer({ ...env, HEARTH_ROLE: 'api' }, { people });
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const worker = spawn(process.execPath, [...nodeArgs, SERVER], {
    env: {
      ...process.env,
      HEARTH_DATA_DIR: server.dataDir,
      DATABASE_URL: env.DATABASE_URL ?? `sqlite:${path.join(server.dataDir, 'hearth.db')}`,
      HEARTH_LOG_LEVEL: 'info',
      HEARTH_ROLE: 'worker',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const file = path.join(server.dataDir, 'bench-import.csv');
  try {
    await workerStarted(worker);
    await new Promise((r) => setTimeout(r, 3000)); // the worker settles and idles
    const again = Array.from(
      { length: AGAIN },
      (_, k) => [ROWS, knownSmall, `again${k + 1}`] as const,
    );
    for (const [count, knownFrom, tag] of [
      [small, 0, 'small'],
      [ROWS, knownSmall, 'full'],
      ...again,
    ] as const) {
      writeCsv(file, count, knownFrom, tag);
      const size = statSync(file).size / 1024 / 1024;
      const run = await importFile(server, file, worker.pid!);
      const b = run.body;
      rows.push({
        name: `${label}: import ${count.toLocaleString('en')} rows (${size.toFixed(1)} MB CSV)`,
        rate: count / run.seconds,
        unit: 'rows/s',
        p50: run.seconds * 1000,
        p99: run.seconds * 1000,
        note: `${run.seconds.toFixed(1)} s; worker CPU ${((run.cpuSeconds / count) * 1e6).toFixed(0)} µs/row; worker RSS idle ${run.idle.toFixed(0)} MB, peak ${run.peak.toFixed(0)} MB; created ${b.created}, updated ${b.updated}, skipped ${b.skipped}, errors ${b.errorCount}`,
      });
      process.stderr.write(`${rows[rows.length - 1].name}: ${rows[rows.length - 1].note}\n`);
      // Everyone the database now holds, after each import: export memory against the count too.
      const exported = await exportAll(server);
      const people = exported.lines - 1;
      rows.push({
        name: `${label}: export ${people.toLocaleString('en')} people (CSV, ${(exported.bytes / 1024 / 1024).toFixed(1)} MB)`,
        rate: people / exported.seconds,
        unit: 'people/s',
        p50: exported.seconds * 1000,
        p99: exported.seconds * 1000,
        note: `${exported.seconds.toFixed(1)} s; API CPU ${((exported.cpuSeconds / people) * 1e6).toFixed(0)} µs/person; API RSS before ${exported.before.toFixed(0)} MB, peak ${exported.peak.toFixed(0)} MB`,
      });
      process.stderr.write(`${rows[rows.length - 1].name}: ${rows[rows.length - 1].note}\n`);
    }
  } finally {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    rmSync(file, { force: true });
    await server.close();
  }
  return rows;
}

export default async function (h: BenchHarness): Promise<BenchRow[]> {
  // BENCH_IMPORT_SQLITE=off runs PostgreSQL alone.
  const rows =
    process.env.BENCH_IMPORT_SQLITE === 'off' ? [] : await onDatabase(h, 'SQLite', {}, ROWS);
  if (process.env.BENCH_PG_URL)
    rows.push(
      ...(await onDatabase(h, 'PostgreSQL', { DATABASE_URL: process.env.BENCH_PG_URL }, PG_ROWS)),
    );
  else process.stderr.write('BENCH_PG_URL unset: PostgreSQL skipped\n');
  return rows;
}
