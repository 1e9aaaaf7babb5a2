import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { givePassword } from '../support/auth.js';
import { launchBrowser, newContext, signInAs } from './browser.js';

describe('signing in and out in the browser', () => {
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

  it('a wrong password shows an alert and stays on /login', async () => {
    const account = await server.newAccount();
    const { email } = await givePassword(server, account.owner);
    const context = await newContext(browser, server);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-right-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /Wrong email or password/);
    assert.match(page.url(), /\/login$/);
    await context.close();
  });

  it('signs in to People, keeps secrets out of the page, and Sign out ends the session', async () => {
    const account = await server.newAccount();
    const { email, password } = await givePassword(server, account.owner);
    const context = await newContext(browser, server);
    const page = await context.newPage();
    await signInAs(page, email, password);

    const cookie = (await context.cookies()).find((c) => c.name === 'hearth_session');
    assert.ok(cookie?.httpOnly && cookie.secure, 'session cookie is HttpOnly and Secure');
    const visible = await page.evaluate(() => ({
      html: document.documentElement.outerHTML,
      cookie: document.cookie,
      storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    }));
    for (const [where, text] of Object.entries(visible)) {
      assert.ok(!text.includes(cookie.value), `session id not in ${where}`);
      assert.ok(!text.includes(account.owner.key), `API key not in ${where}`);
    }

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    const after = await server.call('GET', '/auth/session', {
      headers: { cookie: `hearth_session=${cookie.value}` },
    });
    assert.equal(after.status, 401, 'the old session no longer works');
    await page.goto('/people');
    await page.waitForURL(/\/login/);
    await context.close();
  });

  it('/login?next= goes to that page after sign-in', async () => {
    const account = await server.newAccount();
    const { email, password } = await givePassword(server, account.owner);
    const context = await newContext(browser, server);
    const page = await context.newPage();
    await page.goto('/login?next=%2Fmy-day');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'My day' }).waitFor();
    assert.match(page.url(), /\/my-day$/);
    await context.close();
  });
});
