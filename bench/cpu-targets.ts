// The servers `npm run bench -- cpu` compares: Hearth builds (this checkout's and any baseline's
// dist/server.js, each on its own fresh data directory, set up only through its own first start and
// public API, so any version can be measured) and the same-stack minimum (cpu-minimum.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerServerPid, waitForHealth } from './lib.js';
import { seedPerson } from './cpu-people.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

export interface CpuTarget {
  /** column name: "minimum", "this build", or the baseline's directory name */
  name: string;
  url: string;
  /** headers of an API client (HTTP Basic with the owner's key); none for the minimum */
  apiHeaders: Record<string, string>;
  /** headers of the web app (session cookie), or null when this version has no sessions */
  cookieHeaders: Record<string, string> | null;
  personIds: number[];
  dataDir: string;
  close(): Promise<void>;
}

const randomPort = () => 20000 + Math.floor(Math.random() * 20000);

function started(child: ChildProcess, dataDir: string) {
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

async function postJson(url: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return { json: (await res.json()) as { id: number }, headers: res.headers };
}

/** Seeds `count` people through POST /v1/people, eight at a time; returns their ids. */
async function seedThroughApi(url: string, headers: Record<string, string>, count: number) {
  const ids: number[] = [];
  for (let start = 0; start < count; start += 8) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + 8); i++)
      batch.push(postJson(`${url}/v1/people`, headers, seedPerson(i)));
    for (const { json } of await Promise.all(batch)) ids.push(json.id);
  }
  return ids;
}

/** Chooses the owner's password with the setup link of the first start: the session's cookie. */
async function ownerSession(url: string, dataDir: string): Promise<Record<string, string> | null> {
  let link: string;
  try {
    link = readFileSync(path.join(dataDir, 'setup-link'), 'utf8');
  } catch {
    return null; // a version before the web app
  }
  const token = decodeURIComponent(/token=([^&\s]+)/.exec(link)![1]);
  const { headers } = await postJson(
    `${url}/auth/password`,
    {},
    {
      token,
      password: 'correct horse battery staple bench',
    },
  );
  const cookie = headers.get('set-cookie')!.split(';')[0];
  return { cookie, 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin' };
}

/** Starts one Hearth build as `npm start` runs it (HEARTH_ROLE=all) and seeds it. */
export async function startHearth(
  name: string,
  serverScript: string,
  people: number,
  env: Record<string, string> = {},
): Promise<CpuTarget> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-cpu-'));
  const port = randomPort();
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, serverScript], {
    env: {
      ...process.env,
      HEARTH_DATA_DIR: dataDir,
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dataDir, 'hearth.db')}`,
      HEARTH_PUBLIC_URL: `https://127.0.0.1:${port}`,
      HEARTH_RATE_LIMITS: 'off',
      HEARTH_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `https://127.0.0.1:${port}`;
  const close = started(child, dataDir);
  try {
    await waitForHealth(url, child);
    const key = readFileSync(path.join(dataDir, 'owner-api-key'), 'utf8').trim();
    const apiHeaders = { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
    process.stderr.write(`${name}: seeding ${people} people…\n`);
    const personIds = await seedThroughApi(url, apiHeaders, people);
    const cookieHeaders = await ownerSession(url, dataDir);
    registerServerPid(url, child.pid);
    return { name, url, apiHeaders, cookieHeaders, personIds, dataDir, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Starts the minimum server with the TLS certificate of a Hearth target's data directory. */
export async function startMinimum(certFrom: string, people: number): Promise<CpuTarget> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-cpu-min-'));
  for (const file of ['tls-key.pem', 'tls-cert.pem'])
    copyFileSync(path.join(certFrom, file), path.join(dataDir, file));
  const port = randomPort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(BENCH_DIR, 'cpu-minimum.ts')],
    {
      env: {
        ...process.env,
        MIN_DATA_DIR: dataDir,
        PORT: String(port),
        MIN_PEOPLE: String(people),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `https://127.0.0.1:${port}`;
  const close = started(child, dataDir);
  try {
    await waitForHealth(url, child);
  } catch (err) {
    await close();
    throw err;
  }
  registerServerPid(url, child.pid);
  const personIds = Array.from({ length: people }, (_, i) => i + 1);
  return { name: 'minimum', url, apiHeaders: {}, cookieHeaders: {}, personIds, dataDir, close };
}
