// API reference figures: the size of /openapi.json and of the /docs page and, in Chromium, the
// time from navigation to the first operation's name on screen at /docs (and its heading on the
// first tag's page, /docs/<tag>) with the browser's
// CPU time for it (all its processes, from /proc) and its main-thread work (CDP Performance
// metrics), in a fresh profile each round. Medians of BENCH_ROUNDS (default 5).
// BENCH_DOCS_BASELINE_URL names another running Hearth (e.g. an older build) measured in
// alternate rounds of the same run, so the two are compared under the same machine load.
//   node --import tsx bench/docs-load.ts
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { startServer } from '../test/support/server.js';
import { launchBrowser, treeCpuSeconds } from '../test/browser/browser.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BASELINE = process.env.BENCH_DOCS_BASELINE_URL;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Round {
  visibleMs: number;
  cpuS: number;
  taskS: number;
  styleS: number;
}

async function measure(browser: Browser, url: string, heading: string): Promise<Round> {
  // The operation's name on screen: a heading in a one-page reference, a link in an index.
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const cpuBefore = treeCpuSeconds(process.pid);
  const started = Date.now();
  await page.goto(url);
  await page.getByText(heading, { exact: true }).first().waitFor({ timeout: 180_000 });
  const visibleMs = Date.now() - started;
  const cpuS = treeCpuSeconds(process.pid) - cpuBefore;
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  await context.close();
  return {
    visibleMs,
    cpuS,
    taskS: metric('TaskDuration'),
    styleS: metric('RecalcStyleDuration'),
  };
}

const server = await startServer();
const documentText = (await server.call('GET', '/openapi.json')).text;
const pageText = (await server.call('GET', '/docs')).text;
const document = JSON.parse(documentText) as {
  tags: { name: string }[];
  paths: Record<string, Record<string, { summary?: string; tags?: string[] }>>;
};
// The reference lists operations by tag, in the document's tag order.
const firstTag = document.tags[0].name;
const tagPageText = (await server.call('GET', `/docs/${firstTag}`)).text;
const heading =
  Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .find((operation) => operation.tags?.includes(firstTag))?.summary ?? '';

const browser = await launchBrowser();
const rounds: Round[] = [];
const tagRounds: Round[] = [];
const baselineRounds: Round[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  if (BASELINE) baselineRounds.push(await measure(browser, `${BASELINE}/docs`, heading));
  rounds.push(await measure(browser, `${server.url}/docs`, heading));
  tagRounds.push(await measure(browser, `${server.url}/docs/${firstTag}`, heading));
}
await browser.close();
await server.close();

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; first operation: "${heading}"`,
);
console.log(
  `/openapi.json ${kib(documentText.length)} (gzip ${kib(gzipSync(documentText).length)}),`,
);
console.log(
  `/docs ${kib(pageText.length)} (gzip ${kib(gzipSync(pageText).length)}), /docs/${firstTag} ` +
    `${kib(tagPageText.length)} (gzip ${kib(gzipSync(tagPageText).length)})`,
);
const columns = BASELINE ? ['this build', 'baseline', 'ratio'] : ['this build'];
console.log(`| figure (median of ${ROUNDS}) | ${columns.join(' | ')} |`);
console.log(`|---|${columns.map(() => '---').join('|')}|`);
const row = (
  label: string,
  pick: (r: Round) => number,
  unit: string,
  digits: number,
  ourRounds = rounds,
) => {
  const ours = median(ourRounds.map(pick));
  const cells = [`${ours.toFixed(digits)} ${unit}`];
  if (BASELINE) {
    const theirs = median(baselineRounds.map(pick));
    cells.push(`${theirs.toFixed(digits)} ${unit}`, `${(ours / theirs).toFixed(2)}`);
  }
  console.log(`| ${label} | ${cells.join(' | ')} |`);
};
row('first operation visible', (r) => r.visibleMs, 'ms', 0);
row('browser CPU (all processes)', (r) => r.cpuS, 's', 2);
row('main-thread task time', (r) => r.taskS, 's', 2);
row('of which style recalculation', (r) => r.styleS, 's', 2);
row(`/docs/${firstTag}: first operation visible`, (r) => r.visibleMs, 'ms', 0, tagRounds);
row(`/docs/${firstTag}: browser CPU`, (r) => r.cpuS, 's', 2, tagRounds);
console.log(`rounds (ms): ${rounds.map((r) => r.visibleMs).join(', ')}`);
if (BASELINE)
  console.log(`baseline rounds (ms): ${baselineRounds.map((r) => r.visibleMs).join(', ')}`);
