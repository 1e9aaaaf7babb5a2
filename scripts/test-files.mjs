// The test files of the repository: every *.test.ts under src/ and test/, sorted.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function find(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) find(full, out);
    else if (entry.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/**
 * The test files whose path contains one of `include` (all of them when it is empty) and none of
 * `exclude`.
 */
export function testFiles(include, exclude = []) {
  return ['src', 'test']
    .flatMap((dir) => find(dir))
    .filter((f) => include.length === 0 || include.some((needle) => f.includes(needle)))
    .filter((f) => !exclude.some((needle) => f.includes(needle)))
    .sort();
}

/** The arguments that run test files with node's test runner (TypeScript through tsx). */
export const TEST_RUNNER_ARGS = ['--import', 'tsx', '--test', '--test-reporter=spec'];
