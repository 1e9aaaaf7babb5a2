// Runs test files each on a PostgreSQL database and a Redis database of its own, several files at
// once. For the files that change state every server on a shared database sees (campaign sends
// are worked by whichever worker claims them, webhook retries follow the claiming worker's
// schedule, sign-in throttling counts failures per address): alone on their databases they can
// run side by side instead of one after another.
//
// Arguments: path parts of the files to run, the slowest first. Environment: TEST_DATABASE_URL (the server, and the
// database to connect to while creating the others), TEST_REDIS_URL (the server; databases 1 to
// 15 are used and flushed), TEST_PARALLEL (files at once, default 3).
import { spawn } from 'node:child_process';
import { URL } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import { buildTests, builtPath } from './build-tests.mjs';
import { TEST_RUNNER_ARGS, testFiles } from './test-files.mjs';

const baseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
if (!baseUrl || !redisUrl) {
  console.error('set TEST_DATABASE_URL and TEST_REDIS_URL');
  process.exit(1);
}
const parallel = Math.min(15, Number(process.env.TEST_PARALLEL ?? 3));
const patterns = process.argv.slice(2);
// In the order of the patterns that name them (the longest files first keeps the run short).
const rank = (file) => patterns.findIndex((needle) => file.includes(needle));
const files = testFiles(patterns).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

const base = new URL(baseUrl);
const baseName = base.pathname.slice(1);

async function admin(statement) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database and an empty Redis database for slot `slot`; their URLs. */
async function freshDatabases(slot) {
  const name = `${baseName}_iso${slot}`;
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const redisDb = slot + 1;
  const redis = new Redis(`${redisUrl.replace(/\/\d*$/, '')}/${redisDb}`, { lazyConnect: true });
  await redis.connect();
  await redis.flushdb();
  redis.disconnect();
  const databaseUrl = new URL(baseUrl);
  databaseUrl.pathname = `/${name}`;
  return {
    env: {
      TEST_DATABASE_URL: databaseUrl.toString(),
      TEST_REDIS_URL: `${redisUrl.replace(/\/\d*$/, '')}/${redisDb}`,
    },
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

function runFile(file, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...TEST_RUNNER_ARGS, builtPath(file)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });
}

await buildTests();
const queue = [...files];
const failed = [];
async function worker(slot) {
  for (let file = queue.shift(); file; file = queue.shift()) {
    const started = Date.now();
    const databases = await freshDatabases(slot);
    const { ok, output } = await runFile(file, databases.env);
    await databases.drop();
    // One file's output at a time, whole, so parallel files do not interleave.
    process.stdout.write(
      `\n== ${file} (own databases, ${((Date.now() - started) / 1000).toFixed(1)} s): ${ok ? 'pass' : 'FAIL'} ==\n${output}`,
    );
    if (!ok) failed.push(file);
  }
}
await Promise.all(Array.from({ length: Math.min(parallel, files.length) }, (_, i) => worker(i)));
console.log(`\n== ${files.length} files on databases of their own: ${failed.length} failed ==`);
for (const file of failed) console.log(`  failed: ${file}`);
process.exit(failed.length === 0 ? 0 : 1);
