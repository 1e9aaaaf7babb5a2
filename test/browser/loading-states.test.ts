import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { launchBrowser, PHONE, seriousA11yViolations, signedInPage } from './browser.js';

describe('My day: loading, then the real empty state; a failure says what and offers Retry', () => {
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

  it('a failed task list says what failed, not "Nothing here.", and Retry loads it', async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const { context, page } = await signedInPage(browser, server, agent, PHONE);
    let failing = true;
    await page.route('**/v1/tasks?*due=today*', (route) =>
      failing
        ? route.fulfill({ status: 503, json: { errorMessage: 'Try again soon' } })
        : route.continue(),
    );
    await page.goto('/my-day');
    const today = page.getByRole('region', { name: /^Today/ });
    const failure = today.getByRole('alert');
    await failure.waitFor();
    assert.match(await failure.innerText(), /Could not load tasks: Try again soon/);
    assert.equal(await today.getByText('Nothing here.').count(), 0);
    assert.deepEqual(await seriousA11yViolations(page), []);
    failing = false;
    await failure.getByRole('button', { name: 'Retry' }).click();
    await today.getByText('Nothing here.').waitFor();
    await context.close();
  });
});
