// Runs every *.test.ts under src/ and test/ with node's test runner (TypeScript through tsx).
// Arguments: path parts to keep (all files when none). TEST_EXCLUDE: comma-separated path parts to
// leave out (CI runs those on databases of their own: scripts/run-isolated-tests.mjs). The slowest
// files start first (SLOWEST_FIRST in test-files.mjs).
import { spawnSync } from 'node:child_process';
import { TEST_RUNNER_ARGS, slowestFirst, testFiles } from './test-files.mjs';

const excluded = (process.env.TEST_EXCLUDE ?? '').split(',').filter(Boolean);
const files = slowestFirst(testFiles(process.argv.slice(2), excluded));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
const result = spawnSync(
  process.execPath,
  [...TEST_RUNNER_ARGS, `--test-concurrency=${concurrency}`, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
