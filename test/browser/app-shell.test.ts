import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { launchBrowser, newContext } from './browser.js';

describe('web app shell', () => {
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

  it('serves the app at / and its routes with the CONTRACT CSP, API paths stay JSON', async () => {
    for (const path of ['/', '/login', '/people/12', '/admin/stages', '/set-password?token=x']) {
      const res = await server.call('GET', path);
      assert.equal(res.status, 200, path);
      assert.match(String(res.headers['content-type']), /text\/html/);
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /script-src 'self';/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(res.text, /<script>(?!<\/script>)/, 'no inline script');
    }
    const unknownApi = await server.call('GET', '/v1/nothing-here');
    assert.equal(unknownApi.status, 404);
    assert.match(unknownApi.text, /errorMessage/);
    const unknownAuth = await server.call('GET', '/auth/nothing-here');
    assert.equal(unknownAuth.status, 404);
  });

  it('serves hashed assets with long caching and no other host is referenced', async () => {
    const page = await server.call('GET', '/');
    const scripts = [...page.text.matchAll(/src="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(scripts.length > 0);
    for (const src of scripts) {
      assert.ok(src.startsWith('/'), `${src} is same-origin`);
      const asset = await server.call('GET', src);
      assert.equal(asset.status, 200, src);
      if (src.startsWith('/assets/'))
        assert.match(String(asset.headers['cache-control']), /immutable/);
    }
  });

  it('sends a signed-out visitor to /login with Email, Password and Sign in', async () => {
    const context = await newContext(browser, server);
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(server.url)) foreign.push(req.url());
    });
    const cspErrors: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspErrors.push(msg.text());
    });
    await page.goto('/');
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email').waitFor();
    assert.ok(await page.getByLabel('Password').isVisible());
    assert.ok(await page.getByRole('button', { name: 'Sign in' }).isVisible());
    assert.deepEqual(foreign, []);
    assert.deepEqual(cspErrors, []);
    await context.close();
  });
});
