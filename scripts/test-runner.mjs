// node scripts/test-runner.mjs CONCURRENCY FILE…: node's test runner over the compiled test files
// in the order given (`node --test` sorts them by name), each file in a process of its own started
// with this process's flags, reported like `node --test-reporter=spec`.
// Ends with the slowest files (the sum of their top-level tests), to keep SLOWEST_FIRST true.
// Exits 1 when a test or a file fails.
import { writeFileSync } from 'node:fs';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { TEST_BUILD } from './build-tests.mjs';

/** A compiled test file's path as the checkout names it. */
const sourceName = (file) => file.replace(`${TEST_BUILD}/`, '').replace(/\.js$/, '.ts');

const [concurrency, ...files] = process.argv.slice(2);
const stream = run({ files, concurrency: Number(concurrency) });
const secondsByFile = new Map();
function count({ file, nesting, details }) {
  if (nesting !== 0 || !file) return;
  const name = sourceName(file);
  secondsByFile.set(name, (secondsByFile.get(name) ?? 0) + (details?.duration_ms ?? 0) / 1000);
}
stream.on('test:pass', count);
stream.on('test:fail', (data) => {
  count(data);
  if (!data.todo) process.exitCode = 1;
});
// After the report is written out (the stream's own end comes before the reporter's output).
process.on('beforeExit', () => {
  const byTime = [...secondsByFile].sort((a, b) => b[1] - a[1]);
  // TEST_TIMES_FILE: every file's seconds as JSON, to plan CI's split and SLOWEST_FIRST from.
  if (process.env.TEST_TIMES_FILE) {
    writeFileSync(process.env.TEST_TIMES_FILE, JSON.stringify(Object.fromEntries(byTime), null, 1));
  }
  const slowest = byTime.slice(0, 25);
  console.log('\nslowest files (seconds of their top-level tests):');
  for (const [file, seconds] of slowest) {
    console.log(`  ${seconds.toFixed(1).padStart(7)}  ${file}`);
  }
});
stream.compose(spec).pipe(process.stdout);
