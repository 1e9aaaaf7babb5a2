// Runs every *.test.ts under src/ and test/ with node's test runner, compiled first
// (scripts/build-tests.mjs: a process started through tsx's hooks spent twice the CPU loading).
// Arguments: path parts to keep (all files when none). TEST_EXCLUDE: comma-separated path parts to
// leave out (CI runs those on databases of their own: scripts/run-isolated-tests.mjs). The slowest
// files start first (SLOWEST_FIRST in test-files.mjs).
import { spawnSync } from 'node:child_process';
import { URL, fileURLToPath } from 'node:url';
import { buildTests, builtPath } from './build-tests.mjs';
import { slowestFirst, testFiles } from './test-files.mjs';

const excluded = (process.env.TEST_EXCLUDE ?? '').split(',').filter(Boolean);
const files = slowestFirst(testFiles(process.argv.slice(2), excluded));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
await buildTests();
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
// Not `node --test`, which sorts the files by name: scripts/test-runner.mjs keeps this order.
const result = spawnSync(
  process.execPath,
  [
    fileURLToPath(new URL('test-runner.mjs', import.meta.url)),
    concurrency,
    ...files.map(builtPath),
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
