// node --import tsx scripts/test-runner.mjs CONCURRENCY FILE…: node's test runner over the files in
// the order given (`node --test` sorts them by name), each file in a process of its own started
// with this process's flags (TypeScript through tsx), reported like `node --test-reporter=spec`.
// Exits 1 when a test or a file fails.
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const [concurrency, ...files] = process.argv.slice(2);
const stream = run({ files, concurrency: Number(concurrency) });
stream.on('test:fail', (data) => {
  if (!data.todo) process.exitCode = 1;
});
stream.compose(spec).pipe(process.stdout);
