import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { givePassword } from '../support/auth.js';
import { newClient, REDIRECT } from '../accounts/oauth-helpers.js';
import { launchBrowser, newContext } from './browser.js';

describe('after sign-in the browser stays on Hearth (no open redirect)', () => {
  let server: TestServer;
  let browser: Browser;
  let credentials: { email: string; password: string };
  let accountId: number;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const account = await server.newAccount();
    accountId = account.accountId;
    credentials = await givePassword(server, account.owner);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens `path` signed out, signs in on the page it leads to; answers where the browser went. */
  async function signInFrom(path: string): Promise<URL> {
    const context = await newContext(browser, server);
    const page = await context.newPage();
    await page.goto(path);
    await page.getByLabel('Email').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    let landed = new URL(page.url());
    if (landed.origin === new URL(server.url).origin) {
      // Once a heading shows, the app has made any redirect of its own (/ opens the People list).
      await page.getByRole('heading').first().waitFor();
      landed = new URL(page.url());
    }
    await context.close();
    return landed;
  }

  for (const next of [
    '/%09/evil.example/phish',
    '/%0A/evil.example/phish',
    '/%0D/evil.example/phish',
    '/%5Cevil.example/phish',
    '%2F%09%2Fevil.example',
  ]) {
    it(`/login?next=${next} lands on Hearth's own start page`, async () => {
      const landed = await signInFrom(`/login?next=${next}`);
      assert.equal(landed.origin, new URL(server.url).origin, `went to ${landed.href}`);
      // The same page a sign-in without `next` opens.
      assert.equal(landed.pathname, (await signInFrom('/login')).pathname);
    });
  }

  it('the OAuth sign-in step comes back to the consent page', async () => {
    const client = await newClient(server, accountId);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT,
    });
    const context = await newContext(browser, server);
    const page = await context.newPage();
    await page.goto(`/oauth/authorize?${query}`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('Email').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    const landed = new URL(page.url());
    assert.equal(landed.origin, new URL(server.url).origin);
    assert.equal(landed.pathname, '/oauth/authorize');
    assert.equal(landed.searchParams.get('client_id'), client.clientId);
    await context.close();
  });
});
