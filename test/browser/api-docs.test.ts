import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import {
  launchBrowser,
  newContext,
  PHONE,
  seriousA11yViolations,
  treeCpuSeconds,
} from './browser.js';

/**
 * The budget is on the CPU time the browser spends (all its processes), which a loaded machine
 * does not inflate the way it does wall time: CI runs browser tests beside the others on 2 cores.
 * The page needs no script; the client-side renderer it replaced took 8–30 s. Wall time is logged.
 */
const CPU_BUDGET_S = 5;

describe('the API reference at /docs in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists every operation at once, from this origin only, and leads to one by its name', async () => {
    const context = await newContext(browser, server);
    const page = await context.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    const scripts: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== new URL(server.url).origin && url.protocol !== 'data:')
        foreign.push(request.url());
      if (request.resourceType() === 'script') scripts.push(request.url());
    });

    // The pages are rendered once per server, on the first request: not part of showing them.
    assert.equal((await server.call('GET', '/docs')).status, 200);
    const cpuBefore = treeCpuSeconds(process.pid);
    const started = Date.now();
    await page.goto('/docs');
    await page.getByRole('heading', { name: 'Hearth API', exact: true }).waitFor();
    const people = page.getByRole('region', { name: 'people', exact: true });
    const create = people.getByRole('link', { name: /^Create a person/ });
    await create.waitFor();
    const renderMs = Date.now() - started;
    const cpu = treeCpuSeconds(process.pid) - cpuBefore;
    console.log(`# /docs listed the operations in ${renderMs} ms wall, ${cpu.toFixed(2)} s of CPU`);
    assert.ok(cpu < CPU_BUDGET_S, `${cpu} s of browser CPU`);
    assert.deepEqual(await seriousA11yViolations(page), []);

    // From the list to an operation's description, found by its accessible name.
    await create.click();
    await page.waitForURL(/\/docs\/people#createPeople$/);
    const operation = page.getByRole('region', { name: /^Create a person/ });
    await operation.getByRole('heading', { name: /^Create a person/ }).waitFor();
    assert.match(await operation.innerText(), /POST\s+\/v1\/people/);

    // Another tag's page from the navigation, with an example of the request.
    await page
      .getByRole('navigation', { name: 'API sections' })
      .getByRole('link', { name: 'webhooks', exact: true })
      .click();
    const register = page.getByRole('region', { name: /^Register a webhook/ });
    await register.getByRole('heading', { name: /^Register a webhook/ }).waitFor();
    await register.getByText('Example').first().click();
    assert.match(await register.innerText(), /"event": "peopleCreated"/);
    if (process.env.HEARTH_SCREENSHOTS)
      await page.screenshot({ path: 'docs/screenshots/api-reference-laptop.png' });
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.deepEqual(scripts, [], 'the reference needs no script');

    assert.deepEqual(foreign, [], 'nothing is loaded from another origin');
    assert.deepEqual(problems, [], 'no console error, no CSP violation');
    await context.close();
  });

  it('reads on a phone', async () => {
    const context = await newContext(browser, server, PHONE);
    const page = await context.newPage();
    await page.goto('/docs/deals');
    await page.getByRole('heading', { name: 'deals', exact: true, level: 1 }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `the page is ${width}px wide`);
    await context.close();
  });
});
