// Web app figures: bundle size (raw, gzip, brotli) and the time from navigation to a usable
// People page (heading, Search field and the first person's link on screen) in Chromium, cold
// (fresh profile: nothing cached, session cookie only) and warm (the same profile loading again).
// The bundle figures count the JS and CSS files the People page actually loads (recorded in the
// browser), compressed as the server sends them (the .gz and .br files beside them in web/dist).
//   node --import tsx bench/web-load.ts   (BENCH_ROUNDS, default 5; BENCH_PEOPLE, default 1000)
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';
import { startServer } from '../test/support/server.js';
import { givePassword } from '../test/support/auth.js';
import { LAPTOP, launchBrowser, newContext, signInAs } from '../test/browser/browser.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 1000);
const ASSETS = 'web/dist/assets';

/** Sizes of the given asset files (all of web/dist/assets' JS and CSS when none are given). */
function bundleSizes(names?: string[]) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  const files = names ?? readdirSync(ASSETS).filter((f) => /\.(js|css)$/.test(f));
  for (const file of files) {
    const bytes = readFileSync(`${ASSETS}/${file}`);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    brotli += brotliCompressSync(bytes).length;
  }
  return { raw, gzip, brotli, files: files.length };
}

/** The JS and CSS files a page load fetched from /assets/. */
const loadedAssets = new Set<string>();

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

async function timeToUsablePeople(context: BrowserContext): Promise<number> {
  const page = await context.newPage();
  page.on('response', (response) => {
    const match = /\/assets\/([^/?]+\.(?:js|css))$/.exec(new URL(response.url()).pathname);
    if (match) loadedAssets.add(match[1]);
  });
  const started = Date.now();
  await page.goto('/people');
  await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
  await page.getByLabel('Search').waitFor();
  await page
    .getByRole('link', { name: /^Person \d+/ })
    .first()
    .waitFor();
  const elapsed = Date.now() - started;
  await page.close();
  return elapsed;
}

const server = await startServer();
const account = await server.newAccount();
const seeding: Promise<unknown>[] = [];
for (let i = 0; i < PEOPLE; i += 1) {
  seeding.push(
    server.post(account.owner.key, '/v1/people', {
      firstName: 'Person',
      lastName: String(i),
      emails: [{ value: `p${i}@example.com` }],
      tags: ['buyer'],
    }),
  );
  if (seeding.length === 8) await Promise.all(seeding.splice(0));
}
await Promise.all(seeding);
const { email, password } = await givePassword(server, account.owner);
const browser = await launchBrowser();
const signIn = await newContext(browser, server, LAPTOP);
const signInPage = await signIn.newPage();
await signInAs(signInPage, email, password);
const storageState = await signIn.storageState();
await signIn.close();

const cold: number[] = [];
const warm: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const context = await browser.newContext({
    baseURL: server.url,
    ignoreHTTPSErrors: true,
    viewport: LAPTOP,
    storageState,
  });
  cold.push(await timeToUsablePeople(context));
  warm.push(await timeToUsablePeople(context));
  await context.close();
}
await browser.close();
await server.close();

const sizes = bundleSizes([...loadedAssets]);
const all = bundleSizes();
console.log(
  `${PEOPLE} people in the account; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log('| figure | value |');
console.log('|---|---|');
console.log(`| JS+CSS the People page loads (${sizes.files} files), raw | ${kib(sizes.raw)} |`);
console.log(`| the same, gzip -9 | ${kib(sizes.gzip)} |`);
console.log(`| the same, brotli (sent to browsers that accept it) | ${kib(sizes.brotli)} |`);
console.log(`| all JS+CSS of the app (${all.files} files), gzip -9 | ${kib(all.gzip)} |`);
console.log(`| usable People page, cold (median of ${ROUNDS}) | ${median(cold)} ms |`);
console.log(`| usable People page, warm (median of ${ROUNDS}) | ${median(warm)} ms |`);
console.log(`cold rounds: ${cold.join(', ')} ms; warm rounds: ${warm.join(', ')} ms`);
