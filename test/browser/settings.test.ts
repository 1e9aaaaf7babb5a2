import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, unique, type TestServer } from '../support/server.js';
import {
  LAPTOP,
  launchBrowser,
  newContext,
  PHONE,
  seriousA11yViolations,
  shot,
  signedInPage,
} from './browser.js';
import { login } from '../support/auth.js';

describe('/settings and Forgot password? in the browser', () => {
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

  for (const viewport of [LAPTOP, PHONE]) {
    const size = viewport === LAPTOP ? 'laptop' : 'phone';
    it(`changes your name, email and password (${size})`, async () => {
      const account = await server.newAccount();
      const agent = await account.addUser('Agent');
      const { context, page } = await signedInPage(browser, server, agent, viewport);
      await page.goto('/settings');
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      const address = `${unique('ava')}@example.com`.toLowerCase();
      await page.getByLabel('Name').fill('Ava Brooks');
      await page.getByLabel('Email').fill(address);
      await shot(page, `settings-${size}`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Your settings are saved').waitFor();
      const me = (await server.get(agent.key, '/v1/me')).body;
      assert.deepEqual([me.name, me.email], ['Ava Brooks', address]);

      await page.getByLabel('Current password').fill('plum-harbor-lantern-42');
      await page.getByLabel('New password').fill('cobalt-meadow-violin-7');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Your password is changed').waitFor();
      assert.equal((await login(server, address, 'cobalt-meadow-violin-7')).status, 200);
      await context.close();
    });
  }

  it('Forgot password? without SMTP says to ask an Owner', async () => {
    const context = await newContext(browser, server, PHONE);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Your email').fill('someone@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Ask an Owner of your account').waitFor();
    await shot(page, 'forgot-phone');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await context.close();
  });
});
