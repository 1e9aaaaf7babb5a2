import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { leadAddresses } from '../leads/inbound-helpers.js';
import {
  launchBrowser,
  newContext,
  PHONE,
  seriousA11yViolations,
  signedInPage,
  shot,
  signInUser,
} from './browser.js';

const SHOTS = process.env.SCREENSHOT_DIR; // a directory: the screens are saved there to look at

describe('/settings: the lead addresses, with Copy and Rotate', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("an agent copies and rotates their own address, and never sees the account's", async () => {
    const account = await server.newAccount();
    const agent = await account.addUser('Agent');
    const before = await leadAddresses(server, agent.key);
    const context = await newContext(browser, server, PHONE);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await signInUser(page, server, agent);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Lead addresses' }).waitFor();
    await page.getByText(before.user).waitFor();
    assert.equal(await page.getByText(before.account).count(), 0);
    assert.equal(
      await page.getByRole('button', { name: "Copy the account's lead address" }).count(),
      0,
    );
    await shot(page, 'settings-lead-address-phone', { fullPage: true });
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.getByRole('button', { name: 'Copy your lead address' }).click();
    await page.getByText('Address copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), before.user);

    await page.getByRole('button', { name: 'Rotate your lead address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate your lead address?' });
    await shot(page, 'settings-rotate-phone', { fullPage: true });
    await dialog.getByRole('button', { name: 'Make a new address' }).click();
    await page.getByText('A new address is made').waitFor();
    const after = await leadAddresses(server, agent.key);
    assert.notEqual(after.user, before.user);
    assert.equal(after.account, before.account, "the account's address is untouched");
    // The closing dialog names the address too: wait for it to go, then find the address itself.
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(after.user, { exact: true }).waitFor();
    await context.close();
  });

  it("an Owner sees and rotates the account's address too", async () => {
    const account = await server.newAccount();
    const before = await leadAddresses(server, account.owner.key);
    const { context, page } = await signedInPage(browser, server, account.owner);
    await page.goto('/settings');
    await page.getByText(before.account).waitFor();
    await page.getByText(before.user).waitFor();
    await shot(page, 'settings-lead-address-laptop', { fullPage: true });
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.getByRole('button', { name: "Rotate the account's lead address" }).click();
    await page.getByRole('button', { name: 'Make a new address' }).click();
    await page.getByText('A new address is made').waitFor();
    const after = await leadAddresses(server, account.owner.key);
    assert.notEqual(after.account, before.account);
    assert.equal(after.user, before.user);
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByText(after.account, { exact: true }).waitFor();
    await context.close();
  });
});
