// Runs every *.test.ts under src/ and test/ with node's test runner (TypeScript through tsx).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) find(full, out);
    else if (entry.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const filter = process.argv.slice(2);
// TEST_EXCLUDE: comma-separated path parts to leave out (CI runs those files on a database of their own).
const excluded = (process.env.TEST_EXCLUDE ?? '').split(',').filter(Boolean);
const files = ['src', 'test']
  .flatMap((dir) => find(dir))
  .filter((f) => filter.length === 0 || filter.some((needle) => f.includes(needle)))
  .filter((f) => !excluded.some((needle) => f.includes(needle)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
